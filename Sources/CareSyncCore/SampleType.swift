/// A HealthKit quantity or category type of the catalogue, named without its `HKQuantityTypeIdentifier`
/// or `HKCategoryTypeIdentifier` prefix (`stepCount`, `sleepAnalysis`).
///
/// Only catalogue types exist: `SampleType(rawValue:)` is nil for any other name.
public struct SampleType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The position in `TypeCatalogue.definitions`.
    private let position: Int

    /// The type with this identifier, or nil when the catalogue has none.
    public init?(rawValue: String) {
        guard let position = TypeCatalogue.positions[rawValue] else { return nil }
        self.position = position
    }

    /// The type for an api.md identifier (`stepCount`), or nil when unknown.
    public init?(identifier: String) { self.init(rawValue: identifier) }

    /// The identifier, such as `stepCount`.
    public var rawValue: String { definition.identifier }
    /// The identifier.
    public var description: String { rawValue }
    /// The catalogue entry.
    public var definition: TypeDefinition { TypeCatalogue.definitions[position] }
    /// Quantity or category.
    public var kind: SampleKind { definition.kind }
    /// How quantities combine; nil for category types.
    public var aggregation: AggregationStyle? { definition.aggregation }
    /// Whether values add up over time (statistics: `cumulativeSum`).
    public var isCumulative: Bool { definition.aggregation == .cumulative }
    /// The unit values are stored in; `nil` for category types, which have none.
    public var canonicalUnit: HealthUnit? { definition.canonicalUnit }
    /// A correlation's component types, in stored order (systolic, diastolic); empty for other types.
    public var components: [SampleType] { definition.components.map { SampleType(rawValue: $0)! } }
    /// The correlations this quantity type is a component of, with its position in each (blood pressure for
    /// `bloodPressureSystolic` at 0).
    public var correlations: [(correlation: SampleType, position: Int)] {
        Self.all.compactMap { t in t.definition.components.firstIndex(of: rawValue).map { (t, $0) } }
    }
    /// Every type of the catalogue, in catalogue order.
    public static let all: [SampleType] = TypeCatalogue.definitions.indices.map { SampleType(position: $0) }

    private init(position: Int) { self.position = position }

    /// Cumulative step count (count).
    public static let stepCount = SampleType(rawValue: "stepCount")!
    /// Cumulative distance walked or run (m).
    public static let distanceWalkingRunning = SampleType(rawValue: "distanceWalkingRunning")!
    /// Cumulative active energy (kcal).
    public static let activeEnergyBurned = SampleType(rawValue: "activeEnergyBurned")!
    /// Discrete heart rate (count/min).
    public static let heartRate = SampleType(rawValue: "heartRate")!
    /// Discrete body mass (kg).
    public static let bodyMass = SampleType(rawValue: "bodyMass")!
    /// Discrete height (m).
    public static let height = SampleType(rawValue: "height")!
    /// Discrete walking speed (m/s).
    public static let walkingSpeed = SampleType(rawValue: "walkingSpeed")!
    /// Discrete six-minute walk test distance (m).
    public static let sixMinuteWalkTestDistance = SampleType(rawValue: "sixMinuteWalkTestDistance")!
    /// Sleep stages, a category.
    public static let sleepAnalysis = SampleType(rawValue: "sleepAnalysis")!
    /// Blood pressure, a correlation of systolic and diastolic (mmHg).
    public static let bloodPressure = SampleType(rawValue: "bloodPressure")!
    /// Systolic blood pressure (mmHg), alone or as a component of `bloodPressure`.
    public static let bloodPressureSystolic = SampleType(rawValue: "bloodPressureSystolic")!
    /// Diastolic blood pressure (mmHg), alone or as a component of `bloodPressure`.
    public static let bloodPressureDiastolic = SampleType(rawValue: "bloodPressureDiastolic")!
    /// A food, a correlation of dietary quantities, each in its own unit.
    public static let food = SampleType(rawValue: "food")!
    /// Dietary energy consumed (kcal), alone or as a component of `food`.
    public static let dietaryEnergyConsumed = SampleType(rawValue: "dietaryEnergyConsumed")!
}
