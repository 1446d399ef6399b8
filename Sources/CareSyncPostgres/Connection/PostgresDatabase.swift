import CareSyncStoreCore
import Foundation

/// A PostgreSQL database shared by threads: a pool of reader connections, and one writer connection on
/// which concurrent writes share transactions (the store core's `GroupCommit`, as on SQLite).
///
/// Reads run in a `REPEATABLE READ READ ONLY` transaction, so everything a `read` closure sees is one
/// snapshot. Writes run in `READ COMMITTED` transactions; a write that loses a race (serialization
/// failure, deadlock) or finds its pooled connection broken before `COMMIT` is run again from the start,
/// so a write body must have no effect outside the database. Connections are only reachable inside the
/// closures; don't let them escape.
///
/// ```swift
/// let database = try PostgresDatabase(.init(url: "postgresql://caresync@127.0.0.1/caresync"))
/// try PostgresMigrator(directory: URL(fileURLWithPath: "migrations/postgresql")).migrate(database)
/// try database.write { db in try db.query("DELETE FROM tokens WHERE id = $1", [.text(id)]) }
/// let count = try database.read { db in try db.query("SELECT count(*) FROM tokens").first { try $0.int64(0) } }
/// ```
public final class PostgresDatabase: Sendable {

    /// Where to connect, the pool's size and the bounds on every call.
    public struct Configuration: Hashable, Sendable {
        /// A `postgresql://` URL or a libpq `key=value` string.
        public var url: String
        /// The schema every connection works in (`search_path`); nil keeps the server's default (`public`).
        public var schema: String?
        /// The most reader connections open at once; more concurrent reads wait.
        public var maximumReaders: Int = 8
        /// The longest a statement may run (`statement_timeout`); nil leaves the server's setting.
        public var statementTimeout: Duration? = .seconds(30)
        /// How many times a write that lost a race, or found its connection broken, is run again.
        public var retries: Int = 8
        /// The name its connections show in `pg_stat_activity`.
        public var applicationName = "caresync"
        /// Settings for `url`.
        public init(url: String, schema: String? = nil) { self.url = url; self.schema = schema }
    }

    /// The settings it was opened with.
    public let configuration: Configuration

    private let readers: ConnectionPool<PostgresConnection>
    private let writes: GroupCommit<PostgresConnection>

    /// Opens the pool and checks the server answers (one connection opens now; the rest on demand).
    public init(_ configuration: Configuration) throws {
        self.configuration = configuration
        let first = try Self.open(configuration)
        readers = ConnectionPool(size: configuration.maximumReaders, open: { try Self.open(configuration) }, recycle: { connection in
            connection.rollbackQuietly()
            return !connection.isBroken && !connection.isInTransaction
        })
        let writer = WriterQueue<PostgresConnection>(label: "caresync.postgres.writer") { try Self.open(configuration) }
        writes = GroupCommit(writer: writer, retries: configuration.retries, label: "caresync.postgres.group-commit")
        readers.add(first)
    }

    /// Opens one connection with the pool's settings (schema, statement timeout).
    public static func open(_ configuration: Configuration) throws -> PostgresConnection {
        let connection = try PostgresConnection(url: configuration.url)
        var settings = ["SET application_name TO \(quoteLiteral(configuration.applicationName))"]
        if let schema = configuration.schema { settings.append("SET search_path TO \(quoteIdentifier(schema))") }
        if let timeout = configuration.statementTimeout {
            let (seconds, attoseconds) = timeout.components
            settings.append("SET statement_timeout = \(seconds * 1000 + attoseconds / 1_000_000_000_000_000)")
        }
        try connection.execute(settings.joined(separator: "; "))
        return connection
    }

    /// `text` as a quoted SQL string literal (for settings, which take no parameters).
    public static func quoteLiteral(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// `name` as a quoted SQL identifier.
    public static func quoteIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    // MARK: Writes

    /// Runs `body` in one write transaction and returns after its `COMMIT`; when it throws, nothing it
    /// wrote stays. Concurrent calls may share one transaction, each in a savepoint of its own, so `body`
    /// must not end the transaction itself.
    public func write<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        precondition(!writes.writer.isCurrent, "PostgresDatabase.write called inside write: deadlock")
        return try writes.write(body)
    }

    /// `write` without blocking a thread: suspends until the commit that holds `body` returned.
    public func asyncWrite<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await writes.asyncWrite(body)
    }

    /// Transactions committed by writes so far; fewer than the calls when concurrent writes shared one.
    public var committedTransactions: Int { writes.committedTransactions }

    /// Writes waiting for the next group (tests use it to line callers up).
    var queuedWrites: Int { writes.queuedJobs }

    // MARK: Reads

    /// Runs `body` on a reader inside one `REPEATABLE READ READ ONLY` transaction: one consistent snapshot.
    public func read<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try withConnection { db in try db.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { try body(db) } }
    }

    /// Runs `body` on a pooled connection with no transaction around it (migrations, session settings).
    /// A connection found broken is replaced and `body` run once more: it must be safe to repeat.
    public func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        // A pooled connection that went stale (the server restarted) is replaced once.
        try readers.withConnection(retryOnNew: { ($0 as? PostgresError)?.kind == .connectionLost }, body)
    }
}
