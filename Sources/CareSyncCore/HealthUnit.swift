/// A unit of measure, as HealthKit's `HKUnit`: a dimension and a factor to that dimension's base unit.
public struct HealthUnit: Hashable, Sendable {
    /// The physical quantity a unit measures; units convert only within one dimension.
    public enum Dimension: String, Sendable { case length, mass, energy, count, frequency, speed }

    /// The symbol clients write, such as `km` or `count/min`.
    public let symbol: String
    /// What the unit measures.
    public let dimension: Dimension
    /// How many base units (m, kg, kcal, count, count/min, m/s) one of this unit is.
    public let factorToBase: Double

    /// Metre, the canonical length unit.
    public static let meter = HealthUnit(symbol: "m", dimension: .length, factorToBase: 1)
    /// Kilogram, the canonical mass unit.
    public static let kilogram = HealthUnit(symbol: "kg", dimension: .mass, factorToBase: 1)
    /// Kilocalorie, the canonical energy unit.
    public static let kilocalorie = HealthUnit(symbol: "kcal", dimension: .energy, factorToBase: 1)
    /// A plain count, as steps.
    public static let count = HealthUnit(symbol: "count", dimension: .count, factorToBase: 1)
    /// Count per minute, the canonical frequency unit (heart rate).
    public static let countPerMinute = HealthUnit(symbol: "count/min", dimension: .frequency, factorToBase: 1)
    /// Metre per second, the canonical speed unit.
    public static let meterPerSecond = HealthUnit(symbol: "m/s", dimension: .speed, factorToBase: 1)

    /// Every unit api.md names, by symbol.
    public static let all: [HealthUnit] = [
        .meter,
        HealthUnit(symbol: "cm", dimension: .length, factorToBase: 0.01),
        HealthUnit(symbol: "mm", dimension: .length, factorToBase: 0.001),
        HealthUnit(symbol: "km", dimension: .length, factorToBase: 1000),
        HealthUnit(symbol: "in", dimension: .length, factorToBase: 0.0254),
        HealthUnit(symbol: "ft", dimension: .length, factorToBase: 0.3048),
        HealthUnit(symbol: "yd", dimension: .length, factorToBase: 0.9144),
        HealthUnit(symbol: "mi", dimension: .length, factorToBase: 1609.344),
        .kilogram,
        HealthUnit(symbol: "g", dimension: .mass, factorToBase: 0.001),
        HealthUnit(symbol: "lb", dimension: .mass, factorToBase: 0.45359237),
        HealthUnit(symbol: "oz", dimension: .mass, factorToBase: 0.028349523125),
        .kilocalorie,
        HealthUnit(symbol: "Cal", dimension: .energy, factorToBase: 1),
        HealthUnit(symbol: "kJ", dimension: .energy, factorToBase: 1 / 4.184),
        HealthUnit(symbol: "J", dimension: .energy, factorToBase: 1 / 4184),
        .count,
        .countPerMinute,
        HealthUnit(symbol: "count/s", dimension: .frequency, factorToBase: 60),
        .meterPerSecond,
        HealthUnit(symbol: "km/hr", dimension: .speed, factorToBase: 1000.0 / 3600.0),
        HealthUnit(symbol: "mi/hr", dimension: .speed, factorToBase: 1609.344 / 3600.0),
    ]

    private static let bySymbol: [String: HealthUnit] = Dictionary(uniqueKeysWithValues: all.map { ($0.symbol, $0) })

    /// The unit with this symbol (case-sensitive, as HealthKit: `Cal` is not `cal`), or `nil`.
    public static func named(_ symbol: String) -> HealthUnit? { bySymbol[symbol] }

    /// HealthKit's `is(compatibleWith:)`: the same dimension.
    public func isCompatible(with other: HealthUnit) -> Bool { dimension == other.dimension }

    /// Converts a value in this unit to `other`; the units must be compatible.
    public func convert(_ value: Double, to other: HealthUnit) -> Double {
        precondition(isCompatible(with: other), "incompatible units \(symbol) and \(other.symbol)")
        return self == other ? value : value * factorToBase / other.factorToBase
    }
}
