import CareSyncCore
import Foundation

extension SQLiteSyncStore {
    /// Runs a keyed write: looks the key up, runs `body` and records its answer, all in ONE write
    /// transaction, so two concurrent retries cannot both run the write. A `body` that throws records nothing.
    public func write<Value: Sendable>(
        idempotency claim: IdempotencyClaim?, _ body: @escaping @Sendable (any SyncTransaction) throws -> WriteAnswer<Value>
    ) async throws -> IdempotentWriteResult<Value> {
        try await asyncWriteRows { w in
            guard let claim else { return .performed(try body(w).value) }
            return try Self.keyed(w, claim: claim, body)
        }
    }

    /// The keyed write inside its transaction: replay, refuse, or run and record (`IdempotencyClaim.perform`).
    private static func keyed<Value: Sendable>(
        _ w: SyncWriter, claim: IdempotencyClaim, _ body: (any SyncTransaction) throws -> WriteAnswer<Value>
    ) throws -> IdempotentWriteResult<Value> {
        try claim.perform(stored: try record(w.db, key: claim.key, now: claim.now), { try body(w) }) { record in
            try w.db.execute("""
                INSERT OR REPLACE INTO idempotency_records
                  (scope, key, request_hash, status, response, created_at_ms, expires_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [.text(claim.key.scope), .text(claim.key.key), .blob(record.requestHash), .integer(Int64(record.status)),
                      .blob(record.response), .integer(SyncRules.milliseconds(record.createdAt)),
                      .integer(SyncRules.milliseconds(record.expiresAt))])
        }
    }

    /// The unexpired record of `key`, if any (read-only lookup, e.g. before parsing a large body).
    public func idempotencyRecord(key: IdempotencyKey, now: Date) throws -> IdempotencyRecord? {
        try database.read { try Self.record($0, key: key, now: now) }
    }

    /// Forgets records expired at `now`; returns how many.
    @discardableResult
    public func purgeIdempotencyRecords(now: Date) throws -> Int {
        try database.write { db in
            try db.execute("DELETE FROM idempotency_records WHERE expires_at_ms <= ?", [.integer(SyncRules.milliseconds(now))])
            return db.changes
        }
    }

    static func record(_ db: Connection, key: IdempotencyKey, now: Date) throws -> IdempotencyRecord? {
        try db.fetchOne("""
            SELECT request_hash, status, response, created_at_ms, expires_at_ms FROM idempotency_records
            WHERE scope = ? AND key = ? AND expires_at_ms > ?
            """, [.text(key.scope), .text(key.key), .integer(SyncRules.milliseconds(now))]) { s in
            IdempotencyRecord(requestHash: s.bytes(0), status: Int(s.int64(1)), response: s.bytes(2),
                              createdAt: SyncRules.date(milliseconds: s.int64(3)), expiresAt: SyncRules.date(milliseconds: s.int64(4)))
        }
    }
}
