import Foundation

/// A tombstone, as HealthKit's `HKDeletedObject`: what a feed reader needs to drop its copy.
public struct DeletedObject: Hashable, Sendable {
    /// The sample's identity, unique across the store.
    public var uuid: UUID
    /// What is measured.
    public var type: SampleType
    /// HealthKit's `HKMetadataKeySyncIdentifier`, unique per (patient, source).
    public var syncIdentifier: String?
    /// HealthKit's `HKMetadataKeySyncVersion`; present exactly when `syncIdentifier` is.
    public var syncVersion: Int64?
    /// The app that wrote it, stamped from the caller's token.
    public var source: String
    /// When the measurement starts.
    public var start: Date
    /// When the measurement ends (`end >= start`).
    public var end: Date
    /// When the sample was deleted.
    public var deletedAt: Date

    /// Creates a value from its fields.
    public init(uuid: UUID, type: SampleType, syncIdentifier: String?, syncVersion: Int64?,
                source: String, start: Date, end: Date, deletedAt: Date) {
        self.uuid = uuid; self.type = type; self.syncIdentifier = syncIdentifier; self.syncVersion = syncVersion
        self.source = source; self.start = start; self.end = end; self.deletedAt = deletedAt
    }
}
