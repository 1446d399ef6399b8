/// What a `StoreBackend` needs to know of the configuration: where the database is and how to migrate it.
public struct StoreSettings: Sendable, Equatable {
    /// SQLite's `PRAGMA synchronous` levels for the write connection.
    public enum SQLiteSynchronous: String, Sendable, Equatable {
        case off, normal, full, extra
    }

    /// The path of the SQLite database file.
    public var databasePath: String
    /// A `postgresql://` URL: the PostgreSQL database instead of the SQLite file.
    public var databaseURL: String?
    /// The folder of the migration files (`postgresql/` beneath it for PostgreSQL).
    public var migrationsDirectory: String
    /// SQLite's `PRAGMA synchronous` for the write connection.
    public var sqliteSynchronous: SQLiteSynchronous

    /// Settings from their parts.
    public init(databasePath: String, databaseURL: String? = nil, migrationsDirectory: String,
                sqliteSynchronous: SQLiteSynchronous = .full) {
        self.databasePath = databasePath; self.databaseURL = databaseURL
        self.migrationsDirectory = migrationsDirectory; self.sqliteSynchronous = sqliteSynchronous
    }
}
