import Dispatch
import Foundation
import Synchronization

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
public final class Database: @unchecked Sendable {
    // @unchecked: `writer` is only touched on `writerQueue`; readers are handed out under `poolLock`,
    // one thread at a time. Those two rules are what makes sharing this class safe.

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

    private let writer: Connection
    private let writerQueue: DispatchQueue
    private let writerKey = DispatchSpecificKey<Bool>()
    private let groupCommit: GroupCommit
    /// Readers not checked out.
    private let idleReaders = Mutex<[IdleReader]>([])
    private let readerSlots: DispatchSemaphore

    /// Opens (creating if needed) the database at `path`. The writer opens now; readers open on demand.
    public init(path: String, configuration: Configuration = .init()) throws {
        self.path = path
        self.configuration = configuration
        self.writer = try Connection(path: path, configuration: configuration.connection)
        self.writerQueue = DispatchQueue(label: "caresync.database.writer")
        self.readerSlots = DispatchSemaphore(value: max(1, configuration.maximumReaders))
        writerQueue.setSpecific(key: writerKey, value: true)
        groupCommit = GroupCommit(writer: writer, writerQueue: writerQueue)
    }

    /// Runs `body` on the writer connection inside a `BEGIN IMMEDIATE` transaction and returns after its
    /// `COMMIT`; when it throws, nothing it wrote stays. Concurrent calls may share one transaction and one
    /// commit (`GroupCommit`), each in a savepoint of its own: so `body` must not end the transaction itself.
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        precondition(DispatchQueue.getSpecific(key: writerKey) == nil, "Database.write called inside write: deadlock")
        return try withoutActuallyEscaping(body) { body in
            var result: T?
            let job = GroupCommit.Job(blocking: { db in result = try body(db) })
            groupCommit.perform(job)
            if let error = job.error { throw error }
            guard let result else { preconditionFailure("a finished write job without a result") }
            return result
        }
    }

    /// `write` without blocking a thread: suspends until the commit that holds `body` returned.
    public func asyncWrite<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let result = WriteResult<T>()
            let job = GroupCommit.Job({ db in result.value = try body(db) }, completion: { error in
                if let error { continuation.resume(throwing: error); return }
                guard let value = result.value else { preconditionFailure("a finished write job without a result") }
                continuation.resume(returning: value)
            })
            groupCommit.submit(job)
        }
    }

    /// Transactions committed by `write` so far; fewer than the calls when concurrent writes shared a commit.
    public var committedTransactions: Int { groupCommit.committedTransactions }

    /// Writes waiting for the next group commit (tests use it to line callers up).
    var queuedWrites: Int { groupCommit.queuedJobs }

    /// Runs `body` on the writer connection with no transaction around it (PRAGMAs, VACUUM, migrations).
    public func writeWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        precondition(DispatchQueue.getSpecific(key: writerKey) == nil, "Database.write called inside write: deadlock")
        return try writerQueue.sync { try body(writer) }
    }

    /// Runs `body` on a reader connection inside one read transaction: one consistent snapshot.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        try readWithoutTransaction { db in try db.transaction(.deferred) { try body(db) } }
    }

    /// Runs `body` on a reader connection with no transaction around it (each statement its own snapshot).
    public func readWithoutTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        let reader = try checkOutReader()
        defer { checkIn(reader) }
        return try body(reader)
    }

    /// Runs `body` on another reader connection inside its own read transaction if one is free right now, nil
    /// otherwise. A caller that already holds a reader uses it for a second one: waiting could deadlock the pool.
    public func readIfIdle<T>(_ body: (Connection) throws -> T) throws -> T? {
        guard let reader = try checkOutReader(waiting: false) else { return nil }
        defer { checkIn(reader) }
        return try reader.transaction(.deferred) { try body(reader) }
    }

    private func checkOutReader() throws -> Connection {
        try checkOutReader(waiting: true)!
    }

    /// A reader, opened if none is idle; nil when `waiting` is false and every slot is taken.
    private func checkOutReader(waiting: Bool) throws -> Connection? {
        if waiting { readerSlots.wait() } else if readerSlots.wait(timeout: .now()) == .timedOut { return nil }
        if let idle = idleReaders.withLock({ $0.popLast() }) { return idle.connection }
        do {
            var settings = configuration.connection
            settings.readOnly = true
            return try Connection(path: path, configuration: settings)
        } catch {
            readerSlots.signal()
            throw error
        }
    }

    private func checkIn(_ reader: Connection) {
        reader.rollbackQuietly()
        let idle = IdleReader(connection: reader)
        idleReaders.withLock { $0.append(idle) }
        readerSlots.signal()
    }
}

/// A reader connection in the pool. @unchecked: a connection is used by one thread at a time, and the pool's
/// lock hands it from the thread that checked it in to the one that checks it out.
private struct IdleReader: @unchecked Sendable {
    let connection: Connection
}

/// The value of an asynchronous write, handed from its body to its completion.
private final class WriteResult<T>: @unchecked Sendable {
    // @unchecked: set by the body and read by the completion, both on the thread that ran the group, in that order.
    var value: T?
}
