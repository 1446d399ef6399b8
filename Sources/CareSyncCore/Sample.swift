import Foundation

/// A stored sample: one value of one type over `[start, end]`, from one source, for one patient.
///
/// `value` is in the type's canonical unit. Times have millisecond precision.
/// A sample with a `syncIdentifier` is unique per (patient, source, syncIdentifier).
public struct Sample: Hashable, Sendable {
    public var uuid: UUID
    public var type: SampleType
    public var value: Double
    public var start: Date
    public var end: Date
    public var syncIdentifier: String?
    public var syncVersion: Int64?
    public var source: String
    public var metadata: [String: MetadataValue]

    public init(uuid: UUID, type: SampleType, value: Double, start: Date, end: Date,
                syncIdentifier: String?, syncVersion: Int64?, source: String,
                metadata: [String: MetadataValue] = [:]) {
        self.uuid = uuid; self.type = type; self.value = value; self.start = start; self.end = end
        self.syncIdentifier = syncIdentifier; self.syncVersion = syncVersion
        self.source = source; self.metadata = metadata
    }
}

/// A sample as a client submits it, already validated and converted to the canonical unit.
/// The store assigns a uuid when `uuid` is nil; `source` comes from the caller, not from here.
public struct SampleInput: Hashable, Sendable {
    public var uuid: UUID?
    public var type: SampleType
    public var value: Double
    public var start: Date
    public var end: Date
    public var syncIdentifier: String?
    public var syncVersion: Int64?
    public var metadata: [String: MetadataValue]

    public init(uuid: UUID? = nil, type: SampleType, value: Double, start: Date, end: Date,
                syncIdentifier: String? = nil, syncVersion: Int64? = nil, metadata: [String: MetadataValue] = [:]) {
        self.uuid = uuid; self.type = type; self.value = value; self.start = start; self.end = end
        self.syncIdentifier = syncIdentifier; self.syncVersion = syncVersion; self.metadata = metadata
    }
}
