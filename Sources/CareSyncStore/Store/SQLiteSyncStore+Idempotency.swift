import CareSyncCore
import Foundation

extension SQLiteSyncStore {
    /// Runs a keyed write: looks the key up, runs `body` and records its answer, all in ONE write
    /// transaction, so two concurrent retries cannot both run the write. A `body` that throws records nothing.
    public func write<Value: Sendable>(
        idempotency claim: IdempotencyClaim?, _ body: @escaping @Sendable (any SyncTransaction) throws -> WriteAnswer<Value>
    ) async throws -> IdempotentWriteResult<Value> {
        try await asyncWriteRows { w in try SQLiteDialect.idempotency.keyed(w.db, claim: claim) { try body(w) } }
    }

    /// The unexpired record of `key`, if any (read-only lookup, e.g. before parsing a large body).
    public func idempotencyRecord(key: IdempotencyKey, now: Date) throws -> IdempotencyRecord? {
        try database.read { try SQLiteDialect.idempotency.record($0, key: key, now: now) }
    }

    /// Forgets records expired at `now`; returns how many.
    @discardableResult
    public func purgeIdempotencyRecords(now: Date) throws -> Int {
        try database.write { db in
            try db.execute("DELETE FROM idempotency_records WHERE expires_at_ms <= ?", [.integer(SyncRules.milliseconds(now))])
            return db.changes
        }
    }
}
