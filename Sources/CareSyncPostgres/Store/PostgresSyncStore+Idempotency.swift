import CareSyncCore
import Foundation

extension PostgresSyncStore {
    /// Runs a keyed write: looks the key up, runs `body` and records its answer, all in ONE write
    /// transaction (which holds the head row, so two concurrent retries cannot both run the write, on any
    /// instance). A `body` that throws records nothing.
    public func write<Value: Sendable>(
        idempotency claim: IdempotencyClaim?, _ body: @escaping @Sendable (any SyncTransaction) throws -> WriteAnswer<Value>
    ) async throws -> IdempotentWriteResult<Value> {
        try await asyncWriteRows { w in try PostgresDialect.idempotency.keyed(w.db, claim: claim) { try body(w) } }
    }

    /// The unexpired record of `key`, if any (read-only lookup, e.g. before parsing a large body).
    public func idempotencyRecord(key: IdempotencyKey, now: Date) throws -> IdempotencyRecord? {
        try database.read { try PostgresDialect.idempotency.record($0, key: key, now: now) }
    }
}
