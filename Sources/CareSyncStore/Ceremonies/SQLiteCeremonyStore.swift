import CareSyncCore
import Foundation

/// Pending sign-in ceremonies in the SQLite database (migration 0028). Inserts and takes are writes, so one writer at
/// a time: a ceremony is taken once even when two instances over the same file race for it.
public final class SQLiteCeremonyStore: PendingCeremonyStore {
    let database: Database

    /// A store over an open, migrated database.
    public init(database: Database) { self.database = database }

    public func insertCeremony(_ c: PendingCeremony, capacity: Int, at now: Date) throws -> Bool {
        try database.write { db in
            try db.execute("DELETE FROM pending_ceremonies WHERE kind = ? AND expires_at <= ?",
                           [.text(c.kind.rawValue), .integer(SyncRules.milliseconds(now))])
            let pending = try db.scalarInt64("SELECT count(*) FROM pending_ceremonies WHERE kind = ?", [.text(c.kind.rawValue)]) ?? 0
            guard pending < capacity else { return false }
            guard try db.scalarInt64("SELECT 1 FROM pending_ceremonies WHERE kind = ? AND key = ?",
                                     [.text(c.kind.rawValue), .blob(c.key)]) == nil else { throw PendingCeremonyStoreError.alreadyExists }
            try db.execute("INSERT INTO pending_ceremonies (kind, key, payload, expires_at) VALUES (?, ?, ?, ?)",
                           [.text(c.kind.rawValue), .blob(c.key), .blob(c.payload), .integer(SyncRules.milliseconds(c.expiresAt))])
            return true
        }
    }

    public func takeCeremony(kind: PendingCeremony.Kind, key: [UInt8]) throws -> PendingCeremony? {
        try database.write { db in
            guard let found = try db.fetchOne("SELECT payload, expires_at FROM pending_ceremonies WHERE kind = ? AND key = ?",
                                              [.text(kind.rawValue), .blob(key)], { row in
                PendingCeremony(kind: kind, key: key, payload: row.blob(0), expiresAt: SyncRules.date(milliseconds: row.int64(1)))
            }) else { return nil }
            try db.execute("DELETE FROM pending_ceremonies WHERE kind = ? AND key = ?", [.text(kind.rawValue), .blob(key)])
            return found
        }
    }

    public func ceremonyCount(kind: PendingCeremony.Kind) throws -> Int {
        try database.read { db in
            Int(try db.scalarInt64("SELECT count(*) FROM pending_ceremonies WHERE kind = ?", [.text(kind.rawValue)]) ?? 0)
        }
    }
}
