import Dispatch

/// One connection owned by one serial queue: every use runs on that queue, and asserts it (`dispatchPrecondition`).
///
/// The connection is opened on demand and replaced when it broke (`reset(reconnect:)`). As GRDB's
/// `SerializedDatabase`, callers reach it only through `sync`, which traps when called from the queue itself.
public final class WriterQueue<Connection: WriteConnection>: @unchecked Sendable {
    // @unchecked: `connection` is read and written only on `queue`, which `current()` and `reset` assert.
    private let queue: DispatchQueue
    private let key = DispatchSpecificKey<Bool>()
    private var connection: Connection?
    private let open: () throws -> Connection

    /// A queue named `label` owning `connection` (opened with `open` when nil, and again after a reset dropped it).
    public init(label: String, connection: Connection? = nil, open: @escaping () throws -> Connection) {
        queue = DispatchQueue(label: label)
        self.connection = connection
        self.open = open
        queue.setSpecific(key: key, value: true)
    }

    /// Whether the caller runs on the queue (a write from inside a write would deadlock).
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

    /// Runs `body` on the queue with the connection and returns what it returns; traps when called from the queue.
    public func sync<T>(_ body: (Connection) throws -> T) throws -> T {
        precondition(!isCurrent, "a write called inside a write: deadlock")
        return try queue.sync { try body(try current()) }
    }

    /// Runs `body` on the queue; it reaches the connection through `current()`.
    func onQueue<T>(_ body: () throws -> T) rethrows -> T {
        precondition(!isCurrent, "a write called inside a write: deadlock")
        return try queue.sync(execute: body)
    }

    /// Asserts the caller runs on the queue.
    public func assertCurrent() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    /// The connection, opened now if there is none or the last one broke. On the queue only.
    public func current() throws -> Connection {
        assertCurrent()
        if let connection, !connection.isBroken { return connection }
        connection = nil
        let opened = try open()
        connection = opened
        return opened
    }

    /// Rolls back whatever is open; drops the connection when `reconnect`, when it broke, or when it stays in a transaction.
    func reset(reconnect: Bool) {
        assertCurrent()
        guard let db = connection else { return }
        db.rollbackGroup()
        if reconnect || db.isBroken || db.isInTransaction { connection = nil }
    }
}
