/// The HealthKit types CareSync accepts: one table, the source of validation, statistics rules,
/// `GET /v1/types` and the OpenAPI `SampleType` enum.
public enum TypeCatalogue {
    /// Every type, quantities first, then categories, then correlations, each group by identifier.
    public static let definitions: [TypeDefinition] = {
        let all = quantities + categories + correlations
        precondition(Set(all.map(\.identifier)).count == all.count, "a catalogue identifier is listed twice")
        let byIdentifier = Dictionary(uniqueKeysWithValues: all.map { ($0.identifier, $0) })
        for correlation in correlations {
            for name in correlation.components {
                precondition(byIdentifier[name]?.kind == .quantity
                             && (correlation.hasComponentSet || byIdentifier[name]?.canonicalUnit == correlation.canonicalUnit),
                             "component \(name) of \(correlation.identifier) is not a quantity in its unit")
            }
        }
        return all
    }()

    /// HealthKit's correlation types, whose components CareSync stores together as one sample: blood pressure's
    /// pair in mmHg, and a food's dietary quantities (any of them, each at most once, each in its own unit).
    static let correlations: [TypeDefinition] = [
        .correlation("bloodPressure", ["bloodPressureSystolic", "bloodPressureDiastolic"], unit: "mmHg"),
        .componentSet("food", quantities.map(\.identifier).filter { $0.hasPrefix("dietary") }),
    ]

    /// Positions in `definitions` by identifier.
    static let positions: [String: Int] = Dictionary(uniqueKeysWithValues: definitions.enumerated().map { ($1.identifier, $0) })

    /// Units offered as examples when a client sends one that does not fit a type.
    static let exampleUnits = [
        "count", "count/min", "count/s", "%", "m", "cm", "mm", "km", "in", "ft", "yd", "mi", "kg", "g", "mg", "mcg",
        "lb", "oz", "st", "kcal", "Cal", "kJ", "J", "m/s", "km/hr", "mi/hr", "s", "ms", "min", "hr", "d",
        "degC", "degF", "K", "mmHg", "cmAq", "kPa", "inHg", "atm", "L", "mL", "fl_oz_us", "fl_oz_imp", "cup_us", "pt_us",
        "mg/dL", "mmol/L", "L/min", "mL/s", "mL/(kg*min)", "L/(kg*min)", "kcal/(kg*hr)", "W/kg", "W", "kcal/hr", "S", "mcS", "IU", "dBASPL", "dBHL",
        "appleEffortScore",
    ]
}
