import Dispatch
import CareSyncCore
import CareSyncLocking

/// A bounded pool of connections, as GRDB's `Pool`: a semaphore bounds how many are lent at once, idle ones
/// are reused, new ones are opened on demand, and `withConnection` lends one and takes it back.
///
/// Both backends' readers are this pool plus a connection factory; what differs is how a connection opens
/// and whether it may go back to the pool (`recycle`).
public final class ConnectionPool<Connection: AnyObject>: Sendable {
    private let idle = Locked<[Idle<Connection>]>([])
    private let slots: DispatchSemaphore
    private let open: @Sendable () throws -> Connection
    private let recycle: @Sendable (Connection) -> Bool

    /// At most `size` connections lent at once; `open` makes one, `recycle` readies a returned one (false: drop it).
    public init(size: Int, open: @escaping @Sendable () throws -> Connection,
                recycle: @escaping @Sendable (Connection) -> Bool) {
        slots = DispatchSemaphore(value: max(1, size))
        self.open = open
        self.recycle = recycle
    }

    /// Puts an already open connection in the pool (one opened to check the server answers).
    public func add(_ connection: Connection) {
        let entry = Idle(connection: connection)
        idle.withLock { $0.append(entry) }
    }

    /// Lends a connection to `body`, waiting for a free slot. When `body` throws an error `retryOnNew` accepts
    /// (a pooled connection went stale), it runs once more on a newly opened connection.
    public func withConnection<T>(retryOnNew: (any Error) -> Bool = { _ in false },
                                  _ body: (Connection) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        let connection = try checkOut()
        do {
            defer { checkIn(connection) }
            return try body(connection)
        } catch where retryOnNew(error) {
            let fresh = try open()
            defer { checkIn(fresh) }
            return try body(fresh)
        }
    }

    /// Lends a connection to `body` if a slot is free right now; nil otherwise (a caller already holding one
    /// must not wait: it could deadlock the pool).
    public func withConnectionIfIdle<T>(_ body: (Connection) throws -> T) throws -> T? {
        guard slots.wait(timeout: .now()) == .success else { return nil }
        defer { slots.signal() }
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    /// An idle connection, or a new one.
    private func checkOut() throws -> Connection {
        if let entry = idle.withLock({ $0.popLast() }) { return entry.connection }
        return try open()
    }

    /// Takes `connection` back, unless `recycle` refuses it.
    private func checkIn(_ connection: Connection) {
        guard recycle(connection) else { return }
        let entry = Idle(connection: connection)
        idle.withLock { idle in
            precondition(!idle.contains { $0.connection === connection }, "a connection given back to the pool twice")
            idle.append(entry)
        }
    }
}

/// A connection no one holds.
/// @unchecked: only one thread holds a connection at a time (checked in once, asserted), and the pool's mutex hands it over.
private struct Idle<Connection: AnyObject>: @unchecked Sendable {
    let connection: Connection
}
