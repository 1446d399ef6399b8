import CareSyncCore
import Foundation

/// Device enrolments and source display names in the PostgreSQL database (migration postgresql/0010). A claim is one
/// conditional `UPDATE … RETURNING`: of two instances redeeming one code at once, exactly one gets the row.
public final class PostgresEnrolmentStore: EnrolmentStore {
    let database: PostgresDatabase

    /// A store over an open, migrated database.
    public init(database: PostgresDatabase) { self.database = database }

    private static func ms(_ d: Date) -> Int64 { SyncRules.milliseconds(d) }
    private static func date(_ ms: Int64) -> Date { SyncRules.date(milliseconds: ms) }
    private static let columns = "id, patient_id, code_hash, created_by, created_at, expires_at, redeemed_at, cancelled_at, token_id"

    public func insertEnrolment(_ e: EnrolmentRecord) throws {
        try database.write { db in
            guard try db.query("SELECT 1 FROM patients WHERE id = $1 FOR KEY SHARE", [.text(e.patient)]).count > 0 else {
                throw AccessStoreError.missing("patient \(e.patient)")
            }
            let inserted = try db.query("""
                INSERT INTO enrolments (\(Self.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING
                """, [.text(e.id), .text(e.patient), .bytes(e.codeHash), .text(e.createdBy), .int64(Self.ms(e.createdAt)),
                      .int64(Self.ms(e.expiresAt)), .int64(e.redeemedAt.map(Self.ms)), .int64(e.cancelledAt.map(Self.ms)),
                      .text(e.tokenID)]).affected
            guard inserted == 1 else { throw AccessStoreError.alreadyExists("enrolment \(e.id)") }
        }
    }

    public func enrolment(id: String) throws -> EnrolmentRecord? {
        try database.read { db in try db.query("SELECT \(Self.columns) FROM enrolments WHERE id = $1", [.text(id)]).first(Self.row) }
    }

    public func pendingEnrolments(patient: String, at now: Date) throws -> [EnrolmentRecord] {
        try database.read { db in
            try db.query("""
                SELECT \(Self.columns) FROM enrolments WHERE patient_id = $1
                    AND redeemed_at IS NULL AND cancelled_at IS NULL AND expires_at > $2 ORDER BY created_at, id
                """, [.text(patient), .int64(Self.ms(now))]).map(Self.row)
        }
    }

    public func cancelEnrolment(id: String, at now: Date) throws -> Bool {
        try database.write { db in
            try db.query("""
                UPDATE enrolments SET cancelled_at = $1 WHERE id = $2 AND redeemed_at IS NULL AND cancelled_at IS NULL AND expires_at > $1
                """, [.int64(Self.ms(now)), .text(id)]).affected > 0
        }
    }

    public func claimEnrolment(codeHash: [UInt8], at now: Date) throws -> EnrolmentRecord? {
        try database.write { db in
            try db.query("""
                UPDATE enrolments SET redeemed_at = $1
                WHERE code_hash = $2 AND redeemed_at IS NULL AND cancelled_at IS NULL AND expires_at > $1
                RETURNING \(Self.columns)
                """, [.int64(Self.ms(now)), .bytes(codeHash)]).first(Self.row)
        }
    }

    public func releaseEnrolment(id: String) throws {
        _ = try database.write { db in
            try db.query("UPDATE enrolments SET redeemed_at = NULL WHERE id = $1 AND token_id IS NULL", [.text(id)])
        }
    }

    public func completeEnrolment(id: String, device d: DeviceSourceRecord) throws {
        try database.write { db in
            try db.query("UPDATE enrolments SET token_id = $1 WHERE id = $2", [.text(d.tokenID), .text(id)])
            try db.query("""
                INSERT INTO device_sources (patient_id, source, display_name, token_id, enrolled_at) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (patient_id, source) DO UPDATE SET display_name = excluded.display_name, token_id = excluded.token_id,
                    enrolled_at = excluded.enrolled_at
                """, [.text(d.patient), .text(d.source), .text(d.displayName), .text(d.tokenID), .int64(Self.ms(d.enrolledAt))])
        }
    }

    public func deviceSources(patients: [String]) throws -> [String: [DeviceSourceRecord]] {
        try database.read { db in
            var sources: [String: [DeviceSourceRecord]] = [:]
            for patient in patients {
                sources[patient] = try db.query("""
                    SELECT patient_id, source, display_name, token_id, enrolled_at FROM device_sources WHERE patient_id = $1 ORDER BY source
                    """, [.text(patient)]).map { r in
                    DeviceSourceRecord(patient: try r.string(0), source: try r.string(1), displayName: try r.string(2),
                                       tokenID: try r.string(3), enrolledAt: Self.date(try r.int64(4)))
                }
            }
            return sources
        }
    }

    private static func row(_ r: PostgresRow) throws -> EnrolmentRecord {
        EnrolmentRecord(id: try r.string(0), patient: try r.string(1), codeHash: try r.bytes(2), createdBy: try r.string(3),
                        createdAt: date(try r.int64(4)), expiresAt: date(try r.int64(5)), redeemedAt: try r.optionalInt64(6).map(date),
                        cancelledAt: try r.optionalInt64(7).map(date), tokenID: try r.optionalString(8))
    }
}
