/// A resolved unit, or the message saying why a symbol does not fit a type.
public enum UnitResolution: Hashable, Sendable {
    /// The unit to use (nil: category type, no unit).
    case resolved(HealthUnit?)
    /// What is wrong, naming the type and the unit.
    case problem(String)
}
