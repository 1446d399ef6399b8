import CareSyncStore
import Foundation

/// Checks made before serving, so a server never starts on a database it cannot use:
/// it fails closed with one clear line instead of failing request by request.
public enum StartupCheck {
    /// Refuses a database that cannot take a write (read-only file, folder or mount; a corrupt
    /// file): creates a table in a transaction that is always rolled back, so nothing changes.
    public static func verifyWritable(_ database: Database) throws(StartupError) {
        do {
            try database.writeWithoutTransaction { db in
                try db.execute("BEGIN IMMEDIATE TRANSACTION")
                do {
                    try db.execute("CREATE TABLE main.caresync_startup_probe (x)")
                } catch {
                    try? db.execute("ROLLBACK")  // the probe's own error is the one that matters
                    throw error
                }
                try db.execute("ROLLBACK")
            }
        } catch {
            throw StartupError(path: database.path, reason: "cannot be written: \(error)")
        }
    }
}

extension StartupCheck {
    /// Opens the database with `open`, turning a failure into a ``StartupError`` that names the file
    /// and, when the cause is permissions, the user id that lacks them.
    public static func opening(_ path: String, _ open: () throws -> Database) throws(StartupError) -> Database {
        do {
            return try open()
        } catch {
            var reason = "cannot be opened"
            if let problem = accessProblem(path) { reason += " (\(problem))" }
            throw StartupError(path: path, reason: "\(reason): \(error)")
        }
    }

    /// Says what the current user may not do with the file or its folder (SQLite writes `-wal` and
    /// `-shm` files beside the database), or nil when access looks fine.
    static func accessProblem(_ path: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        let user = "uid \(getuid())"
        if FileManager.default.fileExists(atPath: path) && access(path, R_OK | W_OK) != 0 {
            return errno == EROFS ? "the file is on a read-only file system"
                : "the file is not readable and writable by \(user)"
        }
        if !FileManager.default.fileExists(atPath: folder) {
            return "the folder \(folder) does not exist"
        }
        if access(folder, W_OK | X_OK) != 0 {
            return errno == EROFS ? "the folder \(folder) is on a read-only file system"
                : "the folder \(folder) is not writable by \(user)"
        }
        return nil
    }
}

/// Why the server refused to start; its description is one line naming the database.
public struct StartupError: Error, Sendable, CustomStringConvertible {
    /// The database path.
    public let path: String
    /// What is wrong, in a few words.
    public let reason: String

    /// A refusal naming `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `startup refused: database /data/caresync.sqlite cannot be written: …`.
    public var description: String {
        "startup refused: database \(path) \(reason)"
    }
}
