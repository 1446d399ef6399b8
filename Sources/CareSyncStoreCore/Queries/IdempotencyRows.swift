import CareSyncCore
import Foundation

/// The statements of `idempotency_records` in one dialect.
public struct IdempotencySQL: Sendable {
    /// The unexpired record of a key: scope, key, now (ms). Selects request hash, status, response, created, expires.
    public var lookup: String
    /// Records an answer, replacing an expired one: scope, key, request hash, status, response, created, expires, patient.
    public var save: String

    /// The statements.
    public init(lookup: String, save: String) { self.lookup = lookup; self.save = save }
}

extension IdempotencySQL {
    /// The lookup in SQL both dialects take (`p(n)`: the nth parameter's marker) and the dialect's own `save`.
    public static func portable(parameter p: (Int) -> String, save: String) -> IdempotencySQL {
        IdempotencySQL(lookup: """
            SELECT request_hash, status, response, created_at_ms, expires_at_ms FROM idempotency_records
            WHERE scope = \(p(1)) AND key = \(p(2)) AND expires_at_ms > \(p(3))
            """, save: save)
    }
}

/// Keyed writes over either backend (`IdempotencyClaim`'s rule, in the store's write transaction); only the SQL
/// text is the dialect's.
public struct IdempotencyRows<DB: QueryConnection>: Sendable {
    /// The dialect's statements.
    public let sql: IdempotencySQL

    /// Rows read and written with `sql`.
    public init(sql: IdempotencySQL) { self.sql = sql }

    /// The unexpired record of `key`, if any.
    public func record(_ db: DB, key: IdempotencyKey, now: Date) throws -> IdempotencyRecord? {
        try db.fetchFirst(sql.lookup, [.text(key.scope), .text(key.key), .integer(SyncRules.milliseconds(now))]) { r in
            IdempotencyRecord(requestHash: try r.blob(0), status: Int(try r.integer(1)), response: try r.blob(2),
                              createdAt: SyncRules.date(milliseconds: try r.integer(3)),
                              expiresAt: SyncRules.date(milliseconds: try r.integer(4)))
        }
    }

    /// The keyed write inside its transaction: replay, refuse, or run `body` and record its answer.
    public func keyed<Value>(_ db: DB, claim: IdempotencyClaim?,
                             _ body: () throws -> WriteAnswer<Value>) throws -> IdempotentWriteResult<Value> {
        guard let claim else { return .performed(try body().value) }
        return try claim.perform(stored: try record(db, key: claim.key, now: claim.now), body) { record in
            try db.run(sql.save, [.text(claim.key.scope), .text(claim.key.key), .blob(record.requestHash),
                                  .integer(Int64(record.status)), .blob(record.response),
                                  .integer(SyncRules.milliseconds(record.createdAt)), .integer(SyncRules.milliseconds(record.expiresAt)),
                                  claim.patient.map(QueryValue.text) ?? .null])
        }
    }
}
