import Foundation

/// A stored sample: one value of one type over `[start, end]`, from one source, for one patient.
///
/// `value` is in the type's canonical unit. Times have millisecond precision.
/// A sample with a `syncIdentifier` is unique per (patient, source, syncIdentifier).
public struct Sample: Hashable, Sendable {
    /// The sample's identity, unique across the store.
    public var uuid: UUID
    /// What is measured.
    public var type: SampleType
    /// The value in the type's canonical unit; a pair's first component (systolic); a food's number of components.
    public var value: Double
    /// A correlation's second component (diastolic) in the canonical unit; nil for every other type.
    public var secondValue: Double?
    /// A food's components, each in its type's canonical unit; empty for every other type (a pair uses `value`, `secondValue`).
    public var components: [SampleType: Double]
    /// When the measurement starts.
    public var start: Date
    /// When the measurement ends (`end >= start`).
    public var end: Date
    /// HealthKit's `HKMetadataKeySyncIdentifier`, unique per (patient, source).
    public var syncIdentifier: String?
    /// HealthKit's `HKMetadataKeySyncVersion`; present exactly when `syncIdentifier` is.
    public var syncVersion: Int64?
    /// The app that wrote it, stamped from the caller's token.
    public var source: String
    /// Free metadata: strings, numbers, booleans.
    public var metadata: [String: MetadataValue]

    /// Creates a value from its fields.
    public init(uuid: UUID, type: SampleType, value: Double, secondValue: Double? = nil, components: [SampleType: Double] = [:],
                start: Date, end: Date, syncIdentifier: String?, syncVersion: Int64?, source: String,
                metadata: [String: MetadataValue] = [:]) {
        self.uuid = uuid; self.type = type; self.value = value; self.secondValue = secondValue; self.components = components
        self.start = start; self.end = end
        self.syncIdentifier = syncIdentifier; self.syncVersion = syncVersion
        self.source = source; self.metadata = metadata
    }
}

/// A sample as a client submits it, already validated and converted to the canonical unit.
/// The store assigns a uuid when `uuid` is nil; `source` comes from the caller, not from here.
public struct SampleInput: Hashable, Sendable {
    /// The sample's identity, unique across the store.
    public var uuid: UUID?
    /// What is measured.
    public var type: SampleType
    /// The value in the type's canonical unit; a pair's first component (systolic); a food's number of components.
    public var value: Double
    /// A correlation's second component (diastolic) in the canonical unit; nil for every other type.
    public var secondValue: Double?
    /// A food's components, each in its type's canonical unit; empty for every other type (a pair uses `value`, `secondValue`).
    public var components: [SampleType: Double]
    /// When the measurement starts.
    public var start: Date
    /// When the measurement ends (`end >= start`).
    public var end: Date
    /// HealthKit's `HKMetadataKeySyncIdentifier`, unique per (patient, source).
    public var syncIdentifier: String?
    /// HealthKit's `HKMetadataKeySyncVersion`; present exactly when `syncIdentifier` is.
    public var syncVersion: Int64?
    /// Free metadata: strings, numbers, booleans.
    public var metadata: [String: MetadataValue]

    /// Creates a value from its fields.
    public init(uuid: UUID? = nil, type: SampleType, value: Double, secondValue: Double? = nil,
                components: [SampleType: Double] = [:], start: Date, end: Date,
                syncIdentifier: String? = nil, syncVersion: Int64? = nil, metadata: [String: MetadataValue] = [:]) {
        self.uuid = uuid; self.type = type; self.value = value; self.secondValue = secondValue; self.components = components
        self.start = start; self.end = end
        self.syncIdentifier = syncIdentifier; self.syncVersion = syncVersion; self.metadata = metadata
    }
}

extension Sample {
    /// A correlation's components with their canonical values, in stored order (a food's by identifier); empty
    /// for other types.
    public var componentValues: [(type: SampleType, value: Double)] {
        if !components.isEmpty { return components.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key, $0.value) } }
        guard let secondValue else { return [] }
        return zip(type.components, [value, secondValue]).map { ($0, $1) }
    }

    /// The canonical value this sample gives for `type`: its own value when it is of that type, the
    /// component's when it is a correlation holding `type`, else nil.
    public func value(for type: SampleType) -> Double? {
        if self.type == type { return self.type.kind == .correlation ? nil : value }
        if let component = components[type] { return component }
        return componentValues.first { $0.type == type }?.value
    }
}
