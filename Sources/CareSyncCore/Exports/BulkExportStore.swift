import Foundation

/// FHIR bulk exports in the database every instance shares, so a status URL, a cancellation and a file are answered
/// by any instance, and a finished export outlives a restart until it expires. An erasure deletes every export that
/// reads the erased patient. Methods are blocking and thread-safe.
public protocol BulkExportStore: Sendable {
    /// Stores a new export that reads `patients`. Throws when its id is taken.
    func insertExport(_ record: BulkExportRecord, patients: [String]) throws
    /// The export `id`, or nil when there is none (never stored, cancelled, erased or swept).
    func export(id: String) throws -> BulkExportRecord?
    /// The patients the export `id` reads, sorted; empty when there is no such export.
    func exportPatients(id: String) throws -> [String]
    /// Writes `record`'s phase, progress, outcome, heartbeat and expiry over the stored export of its id; false when it
    /// is gone (cancelled, erased or swept), and nothing is written then.
    func updateExport(_ record: BulkExportRecord) throws -> Bool
    /// Moves the heartbeat of each of `ids` still queued or running to `now`.
    func beatExports(_ ids: [String], at now: Date) throws
    /// Marks failed, with `outcome`, a heartbeat at `now` and `expiresAt`, every queued or running export last beaten at
    /// or before `beatenBefore` (its instance was lost); answers their ids, sorted.
    func failLostExports(beatenBefore: Date, outcome: [UInt8], expiresAt: Date, at now: Date) throws -> [String]
    /// Deletes the export `id`; false when there was none.
    func deleteExport(id: String) throws -> Bool
    /// Deletes the exports expired at `now` (`expiresAt` at or before it); answers their ids.
    func deleteExpiredExports(at now: Date) throws -> [String]
    /// The id of every stored export.
    func exportIDs() throws -> Set<String>
}

/// Why an export was not stored.
public enum BulkExportStoreError: Error, Equatable {
    /// An export with the same id is stored.
    case alreadyExists
}
