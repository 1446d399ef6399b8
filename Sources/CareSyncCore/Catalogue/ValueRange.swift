/// The values a quantity type may take, in its canonical unit: a lower bound always (0 unless the quantity
/// may be negative), an upper bound only where the physical quantity has one (docs/api.md "Value ranges").
public struct ValueRange: Sendable, Equatable {
    /// The smallest value; nil when any finite value below is physical.
    public let minimum: Double?
    /// The largest value; nil when the quantity has no physical upper bound.
    public let maximum: Double?

    /// A range from `minimum` to `maximum`, either end open when nil.
    public init(minimum: Double?, maximum: Double?) { self.minimum = minimum; self.maximum = maximum }

    /// Whether `value` lies inside.
    public func contains(_ value: Double) -> Bool {
        if let minimum, value < minimum { return false }
        if let maximum, value > maximum { return false }
        return true
    }
}

extension TypeCatalogue {
    /// Absolute zero in the catalogue's temperature unit (degC): no temperature is colder.
    static let absoluteZero = -273.15

    /// Quantity types whose values may be below zero, with their lower bound. Every other quantity is a
    /// count, an amount, a length, a duration, a rate or a level that HealthKit itself refuses below zero.
    /// - `appleSleepingWristTemperature` is a deviation from the wearer's baseline (HealthKit: "the difference
    ///   from a baseline"), negative when the wrist is cooler;
    /// - `waterTemperature` is water's own temperature (sea water freezes below 0 °C); only absolute zero bounds it.
    static let lowerBounds: [String: Double] = [
        "appleSleepingWristTemperature": absoluteZero,
        "waterTemperature": absoluteZero,
    ]

    /// Upper bounds where the quantity has one, in the canonical unit. Percentages are HealthKit's fraction (at
    /// most 1). A six-minute walk test is walked for 360 s: at the 20 km race-walking world record's pace
    /// (1:16:10, 4.38 m/s) that is 1,576 m, so 2,000 m leaves room and still refuses a typo's 1,000,000 m.
    static let upperBounds: [String: Double] = [
        "sixMinuteWalkTestDistance": 2_000,
    ]

    /// The range of quantity type `identifier` in `unit` (its canonical unit).
    static func valueRange(of identifier: String, unit: HealthUnit) -> ValueRange {
        let maximum = upperBounds[identifier] ?? (unit.dimension == UnitDimension(.percent) ? 1 : nil)
        let minimum: Double? = lowerBounds[identifier] ?? 0
        return ValueRange(minimum: minimum, maximum: maximum)
    }
}
