import Foundation

/// What one sample of an upsert batch did, by HealthKit's sync identifier / version rules.
public enum UpsertOutcome: Hashable, Sendable {
    /// No stored sample had the key (or the sample had no sync identifier): stored.
    case inserted
    /// A stored sample had a lower version: it became a tombstone and this one was stored with a new uuid.
    case replaced
    /// A stored sample had an equal or higher version, or the same client uuid with the same content: nothing changed.
    case ignored(IgnoreReason)
}

/// Why an upsert changed nothing.
public enum IgnoreReason: String, Hashable, Sendable {
    case sameVersion, olderVersion, duplicateUUID
}

/// The result for one item of an upsert batch.
public struct UpsertItemResult: Hashable, Sendable {
    /// The item's position in the request.
    public var index: Int
    /// The sample the item concerns (the stored winner when ignored).
    public var uuid: UUID
    /// What happened.
    public var outcome: UpsertOutcome
    /// Creates a value from its fields.
    public init(index: Int, uuid: UUID, outcome: UpsertOutcome) { self.index = index; self.uuid = uuid; self.outcome = outcome }
}

/// The result of a whole batch, with the anchor just after its commit.
public struct UpsertBatchResult: Hashable, Sendable {
    /// The anchor just after this point of the change log.
    public var anchor: Anchor
    /// One result per item, in request order.
    public var results: [UpsertItemResult]
    /// Creates a value from its fields.
    public init(anchor: Anchor, results: [UpsertItemResult]) { self.anchor = anchor; self.results = results }
}

/// What a delete request did for one target.
public enum DeleteOutcome: String, Hashable, Sendable { case deleted, notFound, notOwned }

/// The result for one delete target (a uuid, or each sample a sync identifier named).
public struct DeleteItemResult: Hashable, Sendable {
    /// The sample the item concerns (the stored winner when ignored).
    public var uuid: UUID?
    /// HealthKit's `HKMetadataKeySyncIdentifier`, unique per (patient, source).
    public var syncIdentifier: String?
    /// What happened.
    public var outcome: DeleteOutcome
    /// The sample's type, when `outcome` is `deleted` (HealthKit: deleting a type needs the right to write it) or
    /// `notOwned` (a caller that may not read the type answers `notFound`: hidden is unknown).
    public var type: SampleType?
    /// Creates a value from its fields.
    public init(uuid: UUID?, syncIdentifier: String?, outcome: DeleteOutcome, type: SampleType? = nil) {
        self.uuid = uuid; self.syncIdentifier = syncIdentifier; self.outcome = outcome; self.type = type
    }
}

/// The result of a delete request, with the anchor just after its commit.
public struct DeleteBatchResult: Hashable, Sendable {
    /// The anchor just after this point of the change log.
    public var anchor: Anchor
    /// One result per item, in request order.
    public var results: [DeleteItemResult]
    /// Creates a value from its fields.
    public init(anchor: Anchor, results: [DeleteItemResult]) { self.anchor = anchor; self.results = results }
}
