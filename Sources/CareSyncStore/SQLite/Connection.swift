import CSQLite
import Foundation

/// One SQLite connection: opens, configures and closes the handle, prepares and caches statements.
///
/// Not `Sendable`: SQLite connections are opened in multi-thread mode (no internal mutex), so a
/// connection must be used by one thread at a time. `Database` guarantees that by handing
/// connections out only inside its `write` / `read` closures. Don't keep one after the closure returns.
///
/// ```swift
/// try database.write { db in
///     try db.execute("INSERT INTO patients (id, time_zone) VALUES (?, ?)", [.text(id), .text(zone)])
/// }
/// let names = try database.read { db in
///     try db.cachedStatement("SELECT id FROM patients ORDER BY id").map { $0.string(0) }
/// }
/// ```
public final class Connection {
    /// The file path this connection opened.
    public let path: String
    /// The configuration it was opened with.
    public let configuration: ConnectionConfiguration
    let handle: OpaquePointer
    private var statementCache: [String: Statement] = [:]

    /// Opens (and, unless read-only, creates) the database at `path`, then applies `configuration`.
    public init(path: String, configuration: ConnectionConfiguration = .init()) throws {
        var db: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        flags |= configuration.readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let error = DatabaseError(handle: db, resultCode: rc, sql: nil)
            sqlite3_close_v2(db)
            throw error
        }
        self.handle = db; self.path = path; self.configuration = configuration
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, configuration.busyTimeoutMilliseconds)
        if configuration.walMode && !configuration.readOnly {
            let mode = try scalarString("PRAGMA journal_mode = WAL")
            guard mode?.lowercased() == "wal" || path == ":memory:" else {
                throw DatabaseError(extendedCode: SQLITE_ERROR, message: "could not enable WAL (got \(mode ?? "nil"))",
                                    sql: "PRAGMA journal_mode = WAL")
            }
        }
        try execute("PRAGMA synchronous = \(configuration.synchronous.rawValue)")
        try execute("PRAGMA foreign_keys = \(configuration.foreignKeys ? "ON" : "OFF")")
        if let kib = configuration.cacheSizeKiB { try execute("PRAGMA cache_size = -\(kib)") }
    }

    deinit {
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    // MARK: Statements

    /// Prepares a new statement the caller owns.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(connection: handle, sql: sql)
    }

    /// A statement prepared once per connection and reused, reset and with bindings cleared.
    ///
    /// Don't nest two uses of the same SQL text (e.g. run it again while iterating its rows):
    /// both would be the same statement.
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            statement.reset()
            return statement
        }
        let statement = try prepare(sql)
        statementCache[sql] = statement
        return statement
    }

    /// Runs one or more `;`-separated statements with no parameters (DDL, PRAGMA, migration files).
    public func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(errorMessage)
            throw DatabaseError(extendedCode: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// Runs one parameterless statement a connection repeats (`BEGIN`, `COMMIT`, `SAVEPOINT name` …) through the
    /// statement cache: parsed once per connection, not at every transaction as `execute(_:)` would.
    public func executeRepeated(_ sql: String) throws {
        try cachedStatement(sql).execute()
    }

    /// Runs one statement with parameters, through the statement cache.
    public func execute(_ sql: String, _ values: [SQLValue]) throws {
        try cachedStatement(sql).execute(values)
    }

    /// Maps every row of a cached query.
    public func fetchAll<T>(_ sql: String, _ values: [SQLValue] = [], _ transform: (Statement) throws -> T) throws -> [T] {
        try cachedStatement(sql).map(values, transform)
    }

    /// Maps the first row of a cached query, nil when there is none.
    public func fetchOne<T>(_ sql: String, _ values: [SQLValue] = [], _ transform: (Statement) throws -> T) throws -> T? {
        try cachedStatement(sql).first(values, transform)
    }

    /// The first column of the first row as an integer; nil when no row or NULL.
    public func scalarInt64(_ sql: String, _ values: [SQLValue] = []) throws -> Int64? {
        try fetchOne(sql, values) { $0.optionalInt64(0) } ?? nil
    }

    /// The first column of the first row as text; nil when no row or NULL.
    public func scalarString(_ sql: String, _ values: [SQLValue] = []) throws -> String? {
        try fetchOne(sql, values) { $0.optionalString(0) } ?? nil
    }

    // MARK: State

    /// The rowid of the last successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    /// Rows changed by the last INSERT/UPDATE/DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }
    /// Whether a transaction is open.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}

/// Connections are opened without SQLite's mutex; `Database` hands each to one thread at a time.
@available(*, unavailable)
extension Connection: Sendable {}
