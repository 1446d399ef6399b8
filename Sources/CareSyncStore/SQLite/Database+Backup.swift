import CSQLite
import Foundation

extension Database {
    /// Copies the whole database to `destination` as one consistent snapshot while writers keep running.
    ///
    /// Uses `sqlite3_backup_*` from a reader connection in a single step: the source read transaction
    /// pins a WAL snapshot, so writers are never blocked and the copy is never restarted. The copy is
    /// written to `destination` + `.partial`, then `prepare` runs on it (e.g. give it a new identity),
    /// it is switched to a single-file journal mode, and finally renamed into place.
    public func backup(to destination: String, prepare: (Connection) throws -> Void = { _ in }) throws {
        let partial = destination + ".partial"
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: partial + suffix) }
        do {
            try readWithoutTransaction { source in
                var settings = ConnectionConfiguration()
                settings.walMode = false
                let target = try Connection(path: partial, configuration: settings)
                guard let backup = sqlite3_backup_init(target.handle, "main", source.handle, "main") else {
                    throw DatabaseError(handle: target.handle, resultCode: sqlite3_errcode(target.handle), sql: nil)
                }
                let stepCode = sqlite3_backup_step(backup, -1)
                let finishCode = sqlite3_backup_finish(backup)
                guard stepCode == SQLITE_DONE, finishCode == SQLITE_OK else {
                    throw DatabaseError(handle: target.handle, resultCode: stepCode == SQLITE_DONE ? finishCode : stepCode,
                                        sql: nil)
                }
                try target.transaction(.immediate) { try prepare(target) }
                _ = try target.scalarString("PRAGMA journal_mode = DELETE")
                let check = try target.scalarString("PRAGMA quick_check")
                guard check == "ok" else {
                    throw DatabaseError(extendedCode: SQLITE_CORRUPT, message: "backup check failed: \(check ?? "nil")",
                                        sql: "PRAGMA quick_check")
                }
            }
            if FileManager.default.fileExists(atPath: destination) { try FileManager.default.removeItem(atPath: destination) }
            try FileManager.default.moveItem(atPath: partial, toPath: destination)
        } catch {
            try? FileManager.default.removeItem(atPath: partial)  // Leave no half copy behind; the error is what matters.
            throw error
        }
    }
}
