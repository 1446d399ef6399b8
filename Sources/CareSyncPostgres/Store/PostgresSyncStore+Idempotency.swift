import CareSyncCore
import Foundation

extension PostgresSyncStore {
    /// Runs a keyed write: looks the key up, runs `body` and records its answer, all in ONE write
    /// transaction (which holds the head row, so two concurrent retries cannot both run the write, on any
    /// instance). A `body` that throws records nothing.
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
        _ w: PostgresWriter, claim: IdempotencyClaim, _ body: (any SyncTransaction) throws -> WriteAnswer<Value>
    ) throws -> IdempotentWriteResult<Value> {
        try claim.perform(stored: try record(w.db, key: claim.key, now: claim.now), { try body(w) }) { record in
            try w.db.query("""
                INSERT INTO idempotency_records (scope, key, request_hash, status, response, created_at_ms, expires_at_ms)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                ON CONFLICT (scope, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
                  response = excluded.response, created_at_ms = excluded.created_at_ms, expires_at_ms = excluded.expires_at_ms
                """, [.text(claim.key.scope), .text(claim.key.key), .bytes(record.requestHash), .int64(Int64(record.status)),
                      .bytes(record.response), .int64(SyncRules.milliseconds(record.createdAt)),
                      .int64(SyncRules.milliseconds(record.expiresAt))])
        }
    }

    /// The unexpired record of `key`, if any (read-only lookup, e.g. before parsing a large body).
    public func idempotencyRecord(key: IdempotencyKey, now: Date) throws -> IdempotencyRecord? {
        try database.read { try Self.record($0, key: key, now: now) }
    }

    static func record(_ db: PostgresConnection, key: IdempotencyKey, now: Date) throws -> IdempotencyRecord? {
        try db.query("""
            SELECT request_hash, status, response, created_at_ms, expires_at_ms FROM idempotency_records
            WHERE scope = $1 AND key = $2 AND expires_at_ms > $3
            """, [.text(key.scope), .text(key.key), .int64(SyncRules.milliseconds(now))]).first { row in
            IdempotencyRecord(requestHash: try row.bytes(0), status: Int(try row.int64(1)), response: try row.bytes(2),
                              createdAt: SyncRules.date(milliseconds: try row.int64(3)),
                              expiresAt: SyncRules.date(milliseconds: try row.int64(4)))
        }
    }
}
