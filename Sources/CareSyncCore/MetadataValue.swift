/// A metadata value: HealthKit allows strings, numbers and booleans.
public enum MetadataValue: Hashable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
}
