import Foundation

/// The outcome of comparing an incoming sync version with the stored one.
public enum VersionDecision: Hashable, Sendable {
    /// The incoming version is higher: tombstone the stored sample, store the new one.
    case replace
    /// The incoming version is equal or lower: change nothing.
    case ignore(IgnoreReason)
}

/// What a store knows under a uuid a client supplied.
public enum ExistingUUID: Hashable, Sendable {
    /// Nothing: the uuid is free (or the client gave none).
    case unknown
    /// A live sample, with the patient it belongs to.
    case live(Sample, patient: String)
    /// A tombstone: the uuid was used by a sample since deleted.
    case deleted
}

/// The client-uuid rule's verdict.
public enum ClientUUIDDecision: Hashable, Sendable {
    /// The uuid is free (or none was given).
    case fresh
    /// The same sample again: ignore it.
    case duplicate
    /// The uuid names something else: refuse the batch with 409 `conflict`.
    case conflict(String)
}

/// What a store must do with one item of an upsert batch.
public enum UpsertDecision: Hashable, Sendable {
    /// Store it (uuid: the client's, or a new one).
    case insert
    /// Tombstone the given stored sample, then store the incoming one (uuid: the client's, or a new one).
    case replace(Sample)
    /// Change nothing; `existing` is the uuid to report (the stored winner, or the duplicate).
    case ignore(IgnoreReason, existing: UUID)
    /// Refuse the whole batch: `SyncError.conflict`.
    case conflict(String)
}
