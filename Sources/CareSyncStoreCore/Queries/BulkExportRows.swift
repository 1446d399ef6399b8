import CareSyncCore
import Foundation

/// The bulk export records' statements (migrations SQLite 0029 / PostgreSQL 0022), in SQL both dialects take, run on
/// a connection of either (`BulkExportStore`'s implementations call them inside their transactions).
public enum BulkExportRows<Connection: QueryConnection> {
    private static func p(_ n: Int) -> String { Connection.parameter(n) }

    private static var columns: String { """
        id, owner_token, audit_patient, patient_count, request, base, phase, patients_done, resources, outcome, created_at,
        heartbeat_at, expires_at
        """ }

    /// Stores `record` and the patients it reads; throws `alreadyExists` when its id is taken.
    public static func insert(_ record: BulkExportRecord, patients: [String], on db: Connection) throws {
        guard try db.fetchFirst("SELECT 1 FROM bulk_exports WHERE id = \(p(1))", [.text(record.id)], { _ in true }) == nil else {
            throw BulkExportStoreError.alreadyExists
        }
        try db.run("INSERT INTO bulk_exports (\(columns)) VALUES (\((1...13).map(p).joined(separator: ", ")))", [
            .text(record.id), .text(record.ownerTokenID), record.auditPatient.map(QueryValue.text) ?? .null,
            .integer(Int64(record.patientCount)), .text(record.request), .text(record.base), .text(record.phase.rawValue),
            .integer(Int64(record.patientsDone)), .integer(Int64(record.resources)), .blob(record.outcome),
            .integer(SyncRules.milliseconds(record.createdAt)), .integer(SyncRules.milliseconds(record.heartbeatAt)),
            record.expiresAt.map { .integer(SyncRules.milliseconds($0)) } ?? .null,
        ])
        for patient in Set(patients).sorted() {
            try db.run("INSERT INTO bulk_export_patients (export_id, patient) VALUES (\(p(1)), \(p(2)))", [.text(record.id), .text(patient)])
        }
    }

    /// The export `id`, or nil.
    public static func record(id: String, on db: Connection) throws -> BulkExportRecord? {
        try db.fetchFirst("SELECT \(columns) FROM bulk_exports WHERE id = \(p(1))", [.text(id)]) { row in
            BulkExportRecord(
                id: try row.text(0), ownerTokenID: try row.text(1), auditPatient: try row.optionalText(2),
                patientCount: Int(try row.integer(3)), request: try row.text(4), base: try row.text(5),
                phase: BulkExportRecord.Phase(rawValue: try row.text(6)) ?? .failed,
                patientsDone: Int(try row.integer(7)), resources: Int(try row.integer(8)), outcome: try row.blob(9),
                createdAt: SyncRules.date(milliseconds: try row.integer(10)), heartbeatAt: SyncRules.date(milliseconds: try row.integer(11)),
                expiresAt: try row.optionalInteger(12).map(SyncRules.date(milliseconds:)))
        }
    }

    /// The patients the export `id` reads, sorted.
    public static func patients(of id: String, on db: Connection) throws -> [String] {
        try db.fetch("SELECT patient FROM bulk_export_patients WHERE export_id = \(p(1)) ORDER BY patient", [.text(id)]) { try $0.text(0) }
    }

    /// Writes `record`'s phase, progress, outcome, heartbeat and expiry; false when its export is gone.
    public static func update(_ record: BulkExportRecord, on db: Connection) throws -> Bool {
        try db.runCounting("""
            UPDATE bulk_exports SET phase = \(p(1)), patients_done = \(p(2)), resources = \(p(3)), outcome = \(p(4)),
                heartbeat_at = \(p(5)), expires_at = \(p(6))
            WHERE id = \(p(7))
            """, [
            .text(record.phase.rawValue), .integer(Int64(record.patientsDone)), .integer(Int64(record.resources)), .blob(record.outcome),
            .integer(SyncRules.milliseconds(record.heartbeatAt)), record.expiresAt.map { .integer(SyncRules.milliseconds($0)) } ?? .null,
            .text(record.id),
        ]) == 1
    }

    /// Moves the heartbeat of `id` to `now` if it is still queued or running.
    public static func beat(_ id: String, at now: Date, on db: Connection) throws {
        try db.run("UPDATE bulk_exports SET heartbeat_at = \(p(1)) WHERE id = \(p(2)) AND phase IN ('queued', 'running')",
                   [.integer(SyncRules.milliseconds(now)), .text(id)])
    }

    /// Marks failed the queued or running exports last beaten at or before `beatenBefore`; their ids, sorted.
    public static func failLost(beatenBefore: Date, outcome: [UInt8], expiresAt: Date, at now: Date, on db: Connection) throws -> [String] {
        let ids = try db.fetch("""
            SELECT id FROM bulk_exports WHERE phase IN ('queued', 'running') AND heartbeat_at <= \(p(1)) ORDER BY id
            """, [.integer(SyncRules.milliseconds(beatenBefore))]) { try $0.text(0) }
        for id in ids {
            try db.run("""
                UPDATE bulk_exports SET phase = 'failed', outcome = \(p(1)), heartbeat_at = \(p(2)), expires_at = \(p(3)) WHERE id = \(p(4))
                """, [.blob(outcome), .integer(SyncRules.milliseconds(now)), .integer(SyncRules.milliseconds(expiresAt)), .text(id)])
        }
        return ids
    }

    /// Deletes the export `id` and its patients; false when there was none.
    public static func delete(id: String, on db: Connection) throws -> Bool {
        try db.run("DELETE FROM bulk_export_patients WHERE export_id = \(p(1))", [.text(id)])
        return try db.runCounting("DELETE FROM bulk_exports WHERE id = \(p(1))", [.text(id)]) == 1
    }

    /// Deletes the exports expired at `now`; their ids, sorted.
    public static func deleteExpired(at now: Date, on db: Connection) throws -> [String] {
        let ids = try db.fetch("SELECT id FROM bulk_exports WHERE expires_at IS NOT NULL AND expires_at <= \(p(1)) ORDER BY id",
                               [.integer(SyncRules.milliseconds(now))]) { try $0.text(0) }
        for id in ids { _ = try delete(id: id, on: db) }
        return ids
    }

    /// Every export's id.
    public static func ids(on db: Connection) throws -> Set<String> {
        Set(try db.fetch("SELECT id FROM bulk_exports", []) { try $0.text(0) })
    }
}
