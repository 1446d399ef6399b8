/// How samples of a type combine: summed over time, averaged as points, or as categories.
public enum AggregationStyle: String, Sendable, Codable {
    case cumulative, discrete, category
}

/// A HealthKit quantity or category type, named without its `HKQuantityTypeIdentifier` prefix.
public enum SampleType: String, CaseIterable, Sendable, Codable, Hashable {
    case stepCount
    case distanceWalkingRunning
    case activeEnergyBurned
    case heartRate
    case bodyMass
    case height
    case walkingSpeed
    case sixMinuteWalkTestDistance
    case sleepAnalysis

    /// Whether values are summed (cumulative), averaged (discrete) or categories.
    public var aggregation: AggregationStyle {
        switch self {
        case .stepCount, .distanceWalkingRunning, .activeEnergyBurned: .cumulative
        case .heartRate, .bodyMass, .height, .walkingSpeed, .sixMinuteWalkTestDistance: .discrete
        case .sleepAnalysis: .category
        }
    }

    /// The unit values are stored in; `nil` for category types, which have none.
    public var canonicalUnit: HealthUnit? {
        switch self {
        case .stepCount: .count
        case .distanceWalkingRunning, .height, .sixMinuteWalkTestDistance: .meter
        case .activeEnergyBurned: .kilocalorie
        case .heartRate: .countPerMinute
        case .bodyMass: .kilogram
        case .walkingSpeed: .meterPerSecond
        case .sleepAnalysis: nil
        }
    }
}
