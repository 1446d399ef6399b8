import Foundation
import CareSyncStore

/// Idempotent replies in the SQLite database (migration 0011), so a retry after a restart still replays.
public final class SQLiteIdempotencyStore: IdempotencyStore {
    let database: Database

    /// A store over an open, migrated database.
    public init(database: Database) { self.database = database }

    public func reply(tokenID: String, key: String, now: Date) throws -> IdempotentReply? {
        try database.read { db in
            try db.fetchOne("""
                SELECT request_hash, status, body, expires_at FROM api_idempotency
                WHERE token_id = ? AND key = ? AND expires_at > ?
                """, [.text(tokenID), .text(key), .integer(SQLiteAccessStore.ms(now))]) { s in
                IdempotentReply(requestHash: s.bytes(0), status: Int(s.int64(1)), body: s.bytes(2), expiresAt: SQLiteAccessStore.date(s.int64(3)))
            }
        }
    }

    public func save(tokenID: String, key: String, reply: IdempotentReply) throws {
        try database.write { db in
            // An expired record gives way; an unexpired one wins (the first answer is the answer).
            try db.execute("DELETE FROM api_idempotency WHERE token_id = ? AND key = ? AND expires_at <= ?",
                           [.text(tokenID), .text(key), .integer(SQLiteAccessStore.ms(Date()))])
            try db.execute("""
                INSERT OR IGNORE INTO api_idempotency (token_id, key, request_hash, status, body, expires_at) VALUES (?, ?, ?, ?, ?, ?)
                """, [.text(tokenID), .text(key), .blob(reply.requestHash), .integer(Int64(reply.status)), .blob(reply.body),
                      .integer(SQLiteAccessStore.ms(reply.expiresAt))])
        }
    }

    public func purge(now: Date) throws {
        try database.write { db in
            try db.execute("DELETE FROM api_idempotency WHERE expires_at <= ?", [.integer(SQLiteAccessStore.ms(now))])
        }
    }
}
