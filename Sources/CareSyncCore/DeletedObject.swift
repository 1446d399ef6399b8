import Foundation

/// A tombstone, as HealthKit's `HKDeletedObject`: what a feed reader needs to drop its copy.
public struct DeletedObject: Hashable, Sendable {
    public var uuid: UUID
    public var type: SampleType
    public var syncIdentifier: String?
    public var syncVersion: Int64?
    public var source: String
    public var start: Date
    public var end: Date
    public var deletedAt: Date

    public init(uuid: UUID, type: SampleType, syncIdentifier: String?, syncVersion: Int64?,
                source: String, start: Date, end: Date, deletedAt: Date) {
        self.uuid = uuid; self.type = type; self.syncIdentifier = syncIdentifier; self.syncVersion = syncVersion
        self.source = source; self.start = start; self.end = end; self.deletedAt = deletedAt
    }
}
