import CareSyncStore

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
