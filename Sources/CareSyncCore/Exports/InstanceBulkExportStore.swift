import CareSyncLocking
import Foundation

/// Bulk exports in this process's memory: for a server built without a database store (tests, tools) and the oracle
/// the store contract holds the databases to. Its exports are then answered only by this instance.
public final class InstanceBulkExportStore: BulkExportStore {
    private struct Stored { var record: BulkExportRecord; var patients: Set<String> }
    private let exports = Locked<[String: Stored]>([:])

    /// An empty store.
    public init() {}

    public func insertExport(_ record: BulkExportRecord, patients: [String]) throws {
        try exports.withLock { all in
            guard all[record.id] == nil else { throw BulkExportStoreError.alreadyExists }
            all[record.id] = Stored(record: record, patients: Set(patients))
        }
    }

    public func export(id: String) throws -> BulkExportRecord? { exports.withLock { $0[id]?.record } }

    public func exportPatients(id: String) throws -> [String] { exports.withLock { $0[id]?.patients.sorted() ?? [] } }

    public func updateExport(_ record: BulkExportRecord) throws -> Bool {
        exports.withLock { all in
            guard var stored = all[record.id] else { return false }
            let kept = stored.record
            stored.record = record
            // Who started it and what it reads never change.
            stored.record.ownerTokenID = kept.ownerTokenID; stored.record.auditPatient = kept.auditPatient
            stored.record.patientCount = kept.patientCount; stored.record.request = kept.request
            stored.record.base = kept.base; stored.record.createdAt = kept.createdAt
            all[record.id] = stored
            return true
        }
    }

    public func beatExports(_ ids: [String], at now: Date) throws {
        let beat = SyncRules.date(milliseconds: SyncRules.milliseconds(now))
        exports.withLock { all in
            for id in ids where all[id].map({ !$0.record.isFinished }) ?? false { all[id]?.record.heartbeatAt = beat }
        }
    }

    public func failLostExports(beatenBefore: Date, outcome: [UInt8], expiresAt: Date, at now: Date) throws -> [String] {
        let limit = SyncRules.milliseconds(beatenBefore)
        func stored(_ date: Date) -> Date { SyncRules.date(milliseconds: SyncRules.milliseconds(date)) }
        return exports.withLock { all in
            let lost = all.values.filter { !$0.record.isFinished && SyncRules.milliseconds($0.record.heartbeatAt) <= limit }.map(\.record.id)
            for id in lost {
                all[id]?.record.phase = .failed
                all[id]?.record.outcome = outcome
                all[id]?.record.heartbeatAt = stored(now)
                all[id]?.record.expiresAt = stored(expiresAt)
            }
            return lost.sorted()
        }
    }

    public func deleteExport(id: String) throws -> Bool { exports.withLock { $0.removeValue(forKey: id) != nil } }

    public func deleteExpiredExports(at now: Date) throws -> [String] {
        let nowMS = SyncRules.milliseconds(now)
        return exports.withLock { all in
            let gone = all.values.filter { $0.record.expiresAt.map { SyncRules.milliseconds($0) <= nowMS } ?? false }.map(\.record.id)
            for id in gone { all[id] = nil }
            return gone.sorted()
        }
    }

    public func exportIDs() throws -> Set<String> { exports.withLock { Set($0.keys) } }

    /// Deletes the exports that read `patient` (what an erasure does to the database's); answers how many.
    @discardableResult
    public func forget(patient: String) -> Int {
        exports.withLock { all in
            let gone = all.filter { $0.value.patients.contains(patient) }.keys
            for id in gone { all[id] = nil }
            return gone.count
        }
    }
}
