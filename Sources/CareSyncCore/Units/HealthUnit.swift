/// A unit of measure as HealthKit's `HKUnit`, read from its unit string (`HKUnit(from:)`):
/// `km`, `count/min`, `mL/(kg*min)`, `degF`, `mmol<180.15588000005408>/L`.
///
/// Units with equal dimensions are compatible (`is(compatibleWith:)`) and convert linearly, except that
/// a lone temperature unit also shifts its zero (`degC`, `degF`, `K`).
public struct HealthUnit: Hashable, Sendable, CustomStringConvertible {
    /// The unit string as the client wrote it, echoed in answers.
    public let symbol: String
    /// What the unit measures.
    public let dimension: UnitDimension
    /// How many coherent base units (m, g, s, K …) one of this unit is.
    let scale: Double
    /// Added after scaling to reach the base unit; non-zero only for `degC` and `degF`.
    let offset: Double

    /// The unit a string names, or nil when HealthKit would not read it; see `parse(_:molarMass:)`.
    public static func named(_ symbol: String, molarMass: Double? = nil) -> HealthUnit? {
        try? parse(symbol, molarMass: molarMass)
    }

    /// Reads a HealthKit unit string; a bare `mol` takes `molarMass` (g/mol) when one is given.
    public static func parse(_ symbol: String, molarMass: Double? = nil) throws(UnitParseError) -> HealthUnit {
        let unit = try UnitParser.parse(symbol, molarMass: molarMass)
        return HealthUnit(symbol: symbol, dimension: unit.dimension, scale: unit.scale, offset: unit.offset)
    }

    /// The unit string.
    public var description: String { symbol }

    /// HealthKit's `is(compatibleWith:)`: the same dimension.
    public func isCompatible(with other: HealthUnit) -> Bool { dimension == other.dimension }

    /// The conversion of values in this unit to `other`; the units must be compatible.
    public func conversion(to other: HealthUnit) -> UnitConversion {
        precondition(isCompatible(with: other), "incompatible units \(symbol) and \(other.symbol)")
        if self == other { return .identity }
        return UnitConversion(scale: scale / other.scale, offset: (offset - other.offset) / other.scale)
    }

    /// Converts a value in this unit to `other`; the units must be compatible.
    public func convert(_ value: Double, to other: HealthUnit) -> Double { conversion(to: other).apply(value) }

    /// Metre, the canonical length unit.
    public static let meter = HealthUnit.named("m")!
    /// Kilogram, the canonical body-mass unit.
    public static let kilogram = HealthUnit.named("kg")!
    /// Kilocalorie, the canonical energy unit.
    public static let kilocalorie = HealthUnit.named("kcal")!
    /// A plain count, as steps.
    public static let count = HealthUnit.named("count")!
    /// Count per minute, the canonical unit of heart rate.
    public static let countPerMinute = HealthUnit.named("count/min")!
    /// Second, the unit category durations are computed in.
    public static let second = HealthUnit.named("s")!
    /// Metre per second, the canonical speed unit.
    public static let meterPerSecond = HealthUnit.named("m/s")!
}

/// A linear map between two compatible units: `value × scale + offset` (the offset is 0 except for temperatures).
public struct UnitConversion: Hashable, Sendable {
    /// The factor.
    public let scale: Double
    /// Added after the factor.
    public let offset: Double

    /// No change.
    public static let identity = UnitConversion(scale: 1, offset: 0)

    /// `value × scale + offset`.
    @inline(__always) public func apply(_ value: Double) -> Double { offset == 0 ? value * scale : value * scale + offset }
}
