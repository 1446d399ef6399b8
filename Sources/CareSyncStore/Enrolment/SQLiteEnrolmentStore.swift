import Foundation
import CareSyncCore

/// Device enrolments and source display names in the SQLite database (migration 0018).
public final class SQLiteEnrolmentStore: EnrolmentStore {
    let database: Database

    /// A store over an open, migrated database.
    public init(database: Database) { self.database = database }

    private static func ms(_ d: Date) -> Int64 { SQLiteAccessStore.ms(d) }
    private static func date(_ ms: Int64) -> Date { SQLiteAccessStore.date(ms) }
    private static let columns = "id, patient_id, code_hash, created_by, created_at, expires_at, redeemed_at, cancelled_at, token_id"
    private static let pending = "redeemed_at IS NULL AND cancelled_at IS NULL AND expires_at > ?"

    public func insertEnrolment(_ e: EnrolmentRecord) throws {
        try database.write { db in
            guard try db.scalarInt64("SELECT 1 FROM patients WHERE id = ?", [.text(e.patient)]) != nil else {
                throw AccessStoreError.missing("patient \(e.patient)")
            }
            guard try db.scalarInt64("SELECT 1 FROM enrolments WHERE id = ? OR code_hash = ?", [.text(e.id), .blob(e.codeHash)]) == nil else {
                throw AccessStoreError.alreadyExists("enrolment \(e.id)")
            }
            try db.execute("INSERT INTO enrolments (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           [.text(e.id), .text(e.patient), .blob(e.codeHash), .text(e.createdBy), .integer(Self.ms(e.createdAt)),
                            .integer(Self.ms(e.expiresAt)), .integer(e.redeemedAt.map(Self.ms)), .integer(e.cancelledAt.map(Self.ms)),
                            .text(e.tokenID)])
        }
    }

    public func enrolment(id: String) throws -> EnrolmentRecord? {
        try database.read { db in try db.fetchOne("SELECT \(Self.columns) FROM enrolments WHERE id = ?", [.text(id)], Self.row) }
    }

    public func pendingEnrolments(patient: String, at now: Date) throws -> [EnrolmentRecord] {
        try database.read { db in
            try db.fetchAll("SELECT \(Self.columns) FROM enrolments WHERE patient_id = ? AND \(Self.pending) ORDER BY created_at, id",
                            [.text(patient), .integer(Self.ms(now))], Self.row)
        }
    }

    public func cancelEnrolment(id: String, at now: Date) throws -> Bool {
        try database.write { db in
            try db.execute("UPDATE enrolments SET cancelled_at = ? WHERE id = ? AND \(Self.pending)",
                           [.integer(Self.ms(now)), .text(id), .integer(Self.ms(now))])
            return db.changes > 0
        }
    }

    public func claimEnrolment(codeHash: [UInt8], at now: Date) throws -> EnrolmentRecord? {
        try database.write { db in
            // One writer at a time: the check and the mark cannot interleave with another claim.
            guard var e = try db.fetchOne("SELECT \(Self.columns) FROM enrolments WHERE code_hash = ? AND \(Self.pending)",
                                          [.blob(codeHash), .integer(Self.ms(now))], Self.row) else { return nil }
            try db.execute("UPDATE enrolments SET redeemed_at = ? WHERE id = ?", [.integer(Self.ms(now)), .text(e.id)])
            e.redeemedAt = Self.date(Self.ms(now))
            return e
        }
    }

    public func releaseEnrolment(id: String) throws {
        try database.write { db in
            try db.execute("UPDATE enrolments SET redeemed_at = NULL WHERE id = ? AND token_id IS NULL", [.text(id)])
        }
    }

    public func completeEnrolment(id: String, device d: DeviceSourceRecord) throws {
        try database.write { db in
            try db.execute("UPDATE enrolments SET token_id = ? WHERE id = ?", [.text(d.tokenID), .text(id)])
            try db.execute("""
                INSERT INTO device_sources (patient_id, source, display_name, token_id, enrolled_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (patient_id, source) DO UPDATE SET display_name = excluded.display_name, token_id = excluded.token_id,
                    enrolled_at = excluded.enrolled_at
                """, [.text(d.patient), .text(d.source), .text(d.displayName), .text(d.tokenID), .integer(Self.ms(d.enrolledAt))])
        }
    }

    public func deviceSources(patients: [String]) throws -> [String: [DeviceSourceRecord]] {
        try database.read { db in
            var sources: [String: [DeviceSourceRecord]] = [:]
            for patient in patients {
                sources[patient] = try db.fetchAll("""
                    SELECT patient_id, source, display_name, token_id, enrolled_at FROM device_sources WHERE patient_id = ? ORDER BY source
                    """, [.text(patient)]) { s in
                    DeviceSourceRecord(patient: s.string(0), source: s.string(1), displayName: s.string(2), tokenID: s.string(3),
                                       enrolledAt: Self.date(s.int64(4)))
                }
            }
            return sources
        }
    }

    private static func row(_ s: Statement) -> EnrolmentRecord {
        EnrolmentRecord(id: s.string(0), patient: s.string(1), codeHash: s.bytes(2), createdBy: s.string(3), createdAt: date(s.int64(4)),
                        expiresAt: date(s.int64(5)), redeemedAt: s.optionalInt64(6).map(date), cancelledAt: s.optionalInt64(7).map(date),
                        tokenID: s.optionalString(8))
    }
}
