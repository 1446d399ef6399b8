import CareSyncCore
import CareSyncStoreCore
import Foundation

/// Erasure on PostgreSQL (docs/deployment.md "Erasure"): the plan's statements in one write transaction that first
/// locks the patient's row (`FOR UPDATE`: two erasures, or an erasure and a care-team change, never interleave) and
/// raises the erasure count on the head row (an erasure and a sync write never interleave either), then a
/// plain `VACUUM` of the tables it touched. VACUUM makes the dead rows' space reusable; it does not overwrite them, and
/// WAL segments, replicas and base backups keep the old values until they are recycled or expire.
public final class PostgresErasureStore: ErasureStore {
    let database: PostgresDatabase

    /// Erasure on an open, migrated database.
    public init(database: PostgresDatabase) { self.database = database }

    /// PostgreSQL's statements: `$n` markers (a step may name `$1` twice).
    static let eraser = PatientEraser<PostgresConnection>(
        plan: .portable(parameter: PostgresConnection.parameter, lock: " FOR UPDATE",
                        serialize: "UPDATE store_head SET erasures = erasures + 1", hold: " FOR KEY SHARE", extra: []))

    public func erase(_ request: ErasureRequest) throws -> ErasureReceipt? {
        guard var receipt = try database.write({ db -> ErasureReceipt? in
            guard let receipt = try Self.eraser.erase(db, request) else { return nil }
            // As a revocation: every instance ends the deleted tokens' long polls and streams at commit; then every
            // instance forgets what it kept of the patient (a proven reach, pages read ahead) and moves its interrupt
            // epoch, also when the patient had no token.
            if let storeID = try db.query("SELECT value FROM store_meta WHERE key = 'store_id'").first({ try $0.string(0) }) {
                let payloads = receipt.tokenIDs.map(PostgresChangeListener.revocationPayload(token:))
                    + [PostgresChangeListener.erasurePayload(patient: request.patient)]
                for payload in payloads {
                    try db.query("SELECT pg_notify($1, $2)", [.text(PostgresChangeListener.channel(storeID: storeID)), .text(payload)])
                }
            }
            return receipt
        }) else { return nil }
        receipt.cleanupComplete = (try? vacuum()) != nil
        return receipt
    }

    public func wasErased(_ patient: String) throws -> Bool {
        try database.read { db in try Self.eraser.wasErased(db, patient) }
    }

    public func erasedCount() throws -> Int {
        try database.read { db in try Self.eraser.erasedCount(db) }
    }

    /// `VACUUM` of every table the plan deletes from, outside a transaction (as VACUUM must run).
    public func vacuum() throws {
        let tables = Self.eraser.plan.tables.joined(separator: ", ")
        try database.withConnection { db in try db.execute("VACUUM \(tables)") }
    }
}
