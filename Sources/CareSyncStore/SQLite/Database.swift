import CareSyncStoreCore
import Foundation

/// A database file shared by threads: one writer connection on a serial queue, and a pool of readers.
///
/// Writes are serialized and each runs in a `BEGIN IMMEDIATE` transaction; reads run concurrently
/// (WAL mode), each in one read transaction, so everything a `read` closure sees is one snapshot.
/// Connections are only reachable inside the closures; don't let them escape.
///
/// ```swift
/// let database = try Database(path: "data/caresync.sqlite")
/// try Migrator(directory: migrationsURL).migrate(database)
/// try database.write { db in try db.execute("DELETE FROM tokens WHERE id = ?", [.text(id)]) }
/// let count = try database.read { db in try db.scalarInt64("SELECT count(*) FROM tokens") ?? 0 }
/// ```
public final class Database: Sendable {
    /// Pool size and the connections' settings.
    public struct Configuration: Hashable, Sendable {
        /// Settings of the writer connection (readers copy them, read-only).
        public var connection = ConnectionConfiguration()
        /// The most reader connections open at once; more concurrent reads wait.
        public var maximumReaders: Int = 4
        /// The default: WAL, `synchronous=NORMAL`, 4 readers.
        public init() {}
    }

    /// The database file.
    public let path: String
    /// The settings it was opened with.
    public let configuration: Configuration

    /// The writer connection, owned by its serial queue, and the group commit that runs writes on it.
    private let groupCommit: GroupCommit<Connection>
    private let readers: ConnectionPool<Connection>

    /// Opens (creating if needed) the database at `path`. The writer opens now; readers open on demand.
    public init(path: String, configuration: Configuration = .init()) throws {
        self.path = path
        self.configuration = configuration
        let writer = try Connection(path: path, configuration: configuration.connection)
        let queue = WriterQueue(label: "caresync.database.writer", connection: writer, open: { writer })
        groupCommit = GroupCommit(writer: queue, label: "caresync.database.group-commit")
        var settings = configuration.connection
        settings.readOnly = true
        readers = ConnectionPool(size: configuration.maximumReaders,
                                 open: { [settings] in try Connection(path: path, configuration: settings) },
                                 recycle: { reader in reader.rollbackQuietly(); return true })
    }

    /// Runs `body` on the writer connection inside a `BEGIN IMMEDIATE` transaction and returns after its
    /// `COMMIT`; when it throws, nothing it wrote stays. Concurrent calls may share one transaction and one
    /// commit (`GroupCommit`), each in a savepoint of its own: so `body` must not end the transaction itself.
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        precondition(!groupCommit.writer.isCurrent, "Database.write called inside write: deadlock")
        return try groupCommit.write(body)
    }

    /// `write` without blocking a thread: suspends until the commit that holds `body` returned.
    public func asyncWrite<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await groupCommit.asyncWrite(body)
    }

    /// Transactions committed by `write` so far; fewer than the calls when concurrent writes shared a commit.
    public var committedTransactions: Int { groupCommit.committedTransactions }

    /// Writes waiting for the next group commit (tests use it to line callers up).
    var queuedWrites: Int { groupCommit.queuedJobs }

    /// Runs `body` on the writer connection with no transaction around it (PRAGMAs, VACUUM, migrations).
    public func writeWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        precondition(!groupCommit.writer.isCurrent, "Database.write called inside write: deadlock")
        return try groupCommit.writer.sync(body)
    }

    /// Runs `body` on a reader connection inside one read transaction: one consistent snapshot.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        try readWithoutTransaction { db in try db.transaction(.deferred) { try body(db) } }
    }

    /// Runs `body` on a reader connection with no transaction around it (each statement its own snapshot).
    public func readWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        try readers.withConnection(body)
    }

    /// Runs `body` on another reader connection inside its own read transaction if one is free right now, nil
    /// otherwise. A caller that already holds a reader uses it for a second one: waiting could deadlock the pool.
    public func readIfIdle<T>(_ body: (Connection) throws -> T) throws -> T? {
        try readers.withConnectionIfIdle { reader in try reader.transaction(.deferred) { try body(reader) } }
    }
}
