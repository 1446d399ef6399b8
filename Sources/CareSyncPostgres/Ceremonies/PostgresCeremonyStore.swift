import CareSyncCore
import Foundation

/// Pending sign-in ceremonies in the PostgreSQL database (migration 0020, the table of SQLite's 0028). A take is one
/// `DELETE … RETURNING`, so of two instances taking the same ceremony only one gets it. The bound on how many are
/// pending is checked in the inserting transaction: instances inserting at the same moment may pass it by as many.
public final class PostgresCeremonyStore: PendingCeremonyStore {
    let database: PostgresDatabase

    /// A store over an open, migrated database.
    public init(database: PostgresDatabase) { self.database = database }

    public func insertCeremony(_ c: PendingCeremony, capacity: Int, at now: Date) throws -> Bool {
        try database.write { db in
            try db.query("DELETE FROM pending_ceremonies WHERE kind = $1 AND expires_at <= $2",
                         [.text(c.kind.rawValue), .int64(SyncRules.milliseconds(now))])
            let pending = try db.query("SELECT count(*) FROM pending_ceremonies WHERE kind = $1", [.text(c.kind.rawValue)])
                .first { try $0.int64(0) } ?? 0
            guard pending < capacity else { return false }
            let inserted = try db.query("""
                INSERT INTO pending_ceremonies (kind, key, payload, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING
                """, [.text(c.kind.rawValue), .bytes(c.key), .bytes(c.payload),
                      .int64(SyncRules.milliseconds(c.expiresAt))]).affected
            guard inserted == 1 else { throw PendingCeremonyStoreError.alreadyExists }
            return true
        }
    }

    public func takeCeremony(kind: PendingCeremony.Kind, key: [UInt8]) throws -> PendingCeremony? {
        try database.write { db in
            try db.query("DELETE FROM pending_ceremonies WHERE kind = $1 AND key = $2 RETURNING payload, expires_at",
                         [.text(kind.rawValue), .bytes(key)]).first { row in
                PendingCeremony(kind: kind, key: key, payload: try row.bytes(0),
                                expiresAt: SyncRules.date(milliseconds: try row.int64(1)))
            }
        }
    }

    public func ceremonyCount(kind: PendingCeremony.Kind) throws -> Int {
        try database.read { db in
            let count = try db.query("SELECT count(*) FROM pending_ceremonies WHERE kind = $1", [.text(kind.rawValue)])
            return Int(try count.first { try $0.int64(0) } ?? 0)
        }
    }
}
