/// What kind of HealthKit sample a type holds.
public enum SampleKind: String, Sendable {
    /// A number with a unit (`HKQuantityType`).
    case quantity
    /// One of a few enumerated integer values, without unit (`HKCategoryType`).
    case category
    /// Quantities of several types measured together and kept as one object (`HKCorrelationType`):
    /// blood pressure's systolic and diastolic, a food's dietary quantities.
    case correlation
}

/// How HealthKit combines quantities of a type over time (`HKQuantityAggregationStyle`).
public enum AggregationStyle: String, Sendable, CaseIterable {
    /// Summed over time (steps, energy): statistics give `cumulativeSum`.
    case cumulative
    /// Points averaged arithmetically (body mass).
    case discreteArithmetic
    /// Levels averaged over time (heart rate): each value weighted by the time until the next sample.
    case discreteTemporallyWeighted
    /// Sound levels averaged as their equivalent continuous level (energy mean of decibels).
    case discreteEquivalentContinuousLevel

    /// Whether statistics take the discrete options (average, min, max, most recent).
    public var isDiscrete: Bool { self != .cumulative }
}

/// One integer value of a category type, with HealthKit's name for it (`HKCategoryValueSleepAnalysis.asleepREM`).
public struct CategoryValue: Hashable, Sendable {
    /// The stored integer.
    public let value: Int
    /// HealthKit's case name.
    public let name: String

    /// A value and its name.
    public init(_ value: Int, _ name: String) { self.value = value; self.name = name }
}

/// One entry of the type catalogue: a HealthKit identifier and what CareSync needs to know about it.
///
/// A class, so that reading a sample's type in the feed's hot path costs one reference, not a copy.
public final class TypeDefinition: Sendable {
    /// The identifier without its `HKQuantityTypeIdentifier` / `HKCategoryTypeIdentifier` prefix.
    public let identifier: String
    /// Quantity or category.
    public let kind: SampleKind
    /// How quantities combine; nil for categories.
    public let aggregation: AggregationStyle?
    /// The unit values are stored in; nil for categories.
    public let canonicalUnit: HealthUnit?
    /// Grams per mole of the measured substance, for `mmol<…>/L` concentrations (blood glucose); else nil.
    public let molarMass: Double?
    /// The values a category sample may take; empty for quantities.
    public let values: [CategoryValue]
    /// A correlation's quantity types, in the order it stores them (systolic, then diastolic); empty otherwise.
    public let components: [String]
    /// A quantity's values in its canonical unit; nil for categories and correlations (their components have one).
    public let range: ValueRange?
    /// Whether a correlation holds any of its component types, each at most once and in its own unit (food), rather
    /// than every one of them in the correlation's one unit (blood pressure); false for every other type.
    public let hasComponentSet: Bool

    private init(identifier: String, kind: SampleKind, aggregation: AggregationStyle?, canonicalUnit: HealthUnit?,
                 molarMass: Double?, values: [CategoryValue], components: [String] = [], hasComponentSet: Bool = false) {
        self.identifier = identifier; self.kind = kind; self.aggregation = aggregation
        self.canonicalUnit = canonicalUnit; self.molarMass = molarMass; self.values = values; self.components = components
        self.hasComponentSet = hasComponentSet
        range = kind == .quantity ? canonicalUnit.map { TypeCatalogue.valueRange(of: identifier, unit: $0) } : nil
    }

    /// A quantity type; `unit` must be a HealthKit unit string.
    static func quantity(_ identifier: String, _ aggregation: AggregationStyle, _ unit: String,
                         molarMass: Double? = nil) -> TypeDefinition {
        guard let canonical = HealthUnit.named(unit, molarMass: molarMass) else {
            preconditionFailure("catalogue unit \(unit) of \(identifier) does not parse")
        }
        return TypeDefinition(identifier: identifier, kind: .quantity, aggregation: aggregation,
                              canonicalUnit: canonical, molarMass: molarMass, values: [])
    }

    /// A correlation of two quantity types that share the canonical `unit` (checked by `TypeCatalogue`).
    static func correlation(_ identifier: String, _ components: [String], unit: String) -> TypeDefinition {
        guard let canonical = HealthUnit.named(unit), components.count == 2 else {
            preconditionFailure("correlation \(identifier) needs two components and a unit that parses")
        }
        return TypeDefinition(identifier: identifier, kind: .correlation, aggregation: nil, canonicalUnit: canonical,
                              molarMass: nil, values: [], components: components)
    }

    /// A correlation holding a set of its `components`, at least one, each in its own canonical unit (food).
    static func componentSet(_ identifier: String, _ components: [String]) -> TypeDefinition {
        precondition(!components.isEmpty, "correlation \(identifier) needs components")
        return TypeDefinition(identifier: identifier, kind: .correlation, aggregation: nil, canonicalUnit: nil,
                              molarMass: nil, values: [], components: components, hasComponentSet: true)
    }

    /// A category type taking `values`.
    static func category(_ identifier: String, _ values: [CategoryValue]) -> TypeDefinition {
        TypeDefinition(identifier: identifier, kind: .category, aggregation: nil, canonicalUnit: nil,
                       molarMass: nil, values: values)
    }
}
