import CareSyncCore
import Foundation

/// An `Idempotency-Key` as the store keys it: the caller's scope (e.g. its token id) and the key it sent.
public struct IdempotencyKey: Hashable, Sendable {
    /// Who sent the key; keys of different callers never collide.
    public var scope: String
    /// The header value.
    public var key: String
    /// A key in a scope.
    public init(scope: String, key: String) { self.scope = scope; self.key = key }
}

/// The first answer to a keyed request, kept until `expiresAt`.
public struct IdempotencyRecord: Hashable, Sendable {
    /// A hash of the request (method, path, body) the answer belongs to.
    public var requestHash: [UInt8]
    /// The HTTP status of the first answer.
    public var status: Int
    /// The first answer's body bytes.
    public var response: [UInt8]
    /// When it was stored.
    public var createdAt: Date
    /// When it may be forgotten.
    public var expiresAt: Date
    /// A record.
    public init(requestHash: [UInt8], status: Int, response: [UInt8], createdAt: Date, expiresAt: Date) {
        self.requestHash = requestHash; self.status = status; self.response = response
        self.createdAt = createdAt; self.expiresAt = expiresAt
    }
}

/// What a keyed write did.
public enum IdempotentWriteResult<Value> {
    /// First time: the write ran and its answer was recorded in the same transaction.
    case performed(Value)
    /// A retry of the same request: nothing ran; answer with the recorded bytes.
    case replayed(IdempotencyRecord)
    /// The key was used before for a different request: nothing ran (422).
    case keyReused
}

extension IdempotentWriteResult: Sendable where Value: Sendable {}

extension SQLiteSyncStore {
    /// The default time a record is kept: 24 hours (api.md: at least 24 h).
    public static let idempotencyLifetime: TimeInterval = 24 * 3600

    /// Runs a keyed write: looks the key up, runs `body` and records its answer, all in ONE write
    /// transaction, so two concurrent retries cannot both run the write. A `body` that throws records nothing.
    public func idempotentWrite<Value>(
        key: IdempotencyKey, requestHash: [UInt8], now: Date, lifetime: TimeInterval = SQLiteSyncStore.idempotencyLifetime,
        _ body: (SyncWriter) throws -> (value: Value, status: Int, response: [UInt8])
    ) throws -> IdempotentWriteResult<Value> {
        try write { w in try Self.keyed(w, key: key, requestHash: requestHash, now: now, lifetime: lifetime, body) }
    }

    /// `idempotentWrite` without blocking a thread.
    public func asyncIdempotentWrite<Value: Sendable>(
        key: IdempotencyKey, requestHash: [UInt8], now: Date, lifetime: TimeInterval = SQLiteSyncStore.idempotencyLifetime,
        _ body: @escaping @Sendable (SyncWriter) throws -> (value: Value, status: Int, response: [UInt8])
    ) async throws -> IdempotentWriteResult<Value> {
        try await asyncWrite { w in try Self.keyed(w, key: key, requestHash: requestHash, now: now, lifetime: lifetime, body) }
    }

    /// The keyed write inside its transaction: replay, refuse, or run and record.
    private static func keyed<Value>(
        _ w: SyncWriter, key: IdempotencyKey, requestHash: [UInt8], now: Date, lifetime: TimeInterval,
        _ body: (SyncWriter) throws -> (value: Value, status: Int, response: [UInt8])
    ) throws -> IdempotentWriteResult<Value> {
        if let record = try record(w.db, key: key, now: now) {
            return record.requestHash == requestHash ? .replayed(record) : .keyReused
        }
        let (value, status, response) = try body(w)
        try w.db.execute("""
            INSERT OR REPLACE INTO idempotency_records
              (scope, key, request_hash, status, response, created_at_ms, expires_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [.text(key.scope), .text(key.key), .blob(requestHash), .integer(Int64(status)), .blob(response),
                  .integer(SyncRules.milliseconds(now)), .integer(SyncRules.milliseconds(now.addingTimeInterval(lifetime)))])
        return .performed(value)
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
