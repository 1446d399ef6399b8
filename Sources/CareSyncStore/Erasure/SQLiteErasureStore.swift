import CareSyncCore
import CareSyncStoreCore
import Foundation

/// Erasure on the SQLite file (docs/security.md "Erasure"): the plan's statements in one `BEGIN IMMEDIATE` transaction
/// run with `PRAGMA secure_delete = ON` (SQLite overwrites the deleted cells, and pages it frees, with zeros), then a
/// `VACUUM` (the file is rebuilt from the live rows, so no older copy of a row — from an earlier replacement, or left
/// behind when a page was split — survives in free space) and a `wal_checkpoint(TRUNCATE)` (every page is in the
/// database file and the WAL file is cut to zero bytes).
public final class SQLiteErasureStore: ErasureStore {
    let database: Database
    /// How many times a checkpoint that readers held back is tried again (each waits the busy timeout).
    let checkpointAttempts: Int
    /// Whether the file is rebuilt after the transaction (only a test turns it off, to see `secure_delete` alone).
    let rebuilds: Bool

    /// Erasure on an open, migrated database.
    public convenience init(database: Database) { self.init(database: database, checkpointAttempts: 5, rebuilds: true) }

    /// Erasure with its clean-up's settings.
    init(database: Database, checkpointAttempts: Int, rebuilds: Bool) {
        self.database = database; self.checkpointAttempts = checkpointAttempts; self.rebuilds = rebuilds
    }

    /// SQLite's statements: `?1` everywhere (a step binds the patient once and may name it twice); the change log too.
    static let eraser: PatientEraser<Connection> = {
        let p: (Int) -> String = { "?\($0)" }
        return PatientEraser(plan: .portable(parameter: p, lock: "", extra: [.rows("changeLog", "change_log", "patient", p)]))
    }()

    public func erase(_ request: ErasureRequest) throws -> ErasureReceipt? {
        let receipt = try database.writeWithoutTransaction { db in
            let previous = try db.scalarInt64("PRAGMA secure_delete") ?? 0
            try db.execute("PRAGMA secure_delete = ON")
            defer { try? db.execute("PRAGMA secure_delete = \(previous)") }
            return try db.transaction(.immediate) { try Self.eraser.erase(db, request) }
        }
        guard var receipt else { return nil }
        receipt.cleanupComplete = try compact()
        return receipt
    }

    public func wasErased(_ patient: String) throws -> Bool {
        try database.read { db in try Self.eraser.wasErased(db, patient) }
    }

    public func erasedCount() throws -> Int {
        try database.read { db in try Self.eraser.erasedCount(db) }
    }

    /// Rebuilds the file and moves every page out of the WAL, whose file is then truncated to zero bytes; false when
    /// readers kept the WAL busy through every attempt (its file may still hold pages from before the erasure).
    public func compact() throws -> Bool {
        if rebuilds { try database.writeWithoutTransaction { db in try db.execute("VACUUM") } }
        for _ in 0..<checkpointAttempts {
            let busy = try database.writeWithoutTransaction { db in
                try db.fetchOne("PRAGMA wal_checkpoint(TRUNCATE)") { row in row.int64(0) } ?? 1
            }
            if busy == 0 { return true }
        }
        return false
    }
}
