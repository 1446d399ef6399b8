import CareSyncStore

/// Checks made before serving, so a server never starts on a database it cannot use:
/// it fails closed with one clear line instead of failing request by request.
public enum StartupCheck {
    /// Refuses a database that cannot take a write (read-only file, folder or mount; a locked
    /// or corrupt file): runs an empty `BEGIN IMMEDIATE` … `COMMIT` on the writer connection.
    public static func verifyWritable(_ database: Database) throws(StartupError) {
        do {
            try database.write { db in
                // Reading the schema makes SQLite check the file header and first page.
                _ = try db.scalarInt64("PRAGMA schema_version")
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
