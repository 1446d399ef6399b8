import CareSyncLocking
import Synchronization

/// The server's open event streams: how many are open, how many are parked now, and whether the
/// server is stopping (then every stream ends at its next step).
final class EventStreams: Sendable {
    private let counts = Locked((open: 0, parked: 0))
    private let stopping = Atomic<Bool>(false)

    /// Streams open now.
    var open: Int { counts.withLock { $0.open } }
    /// Streams parked on the notifier now (they are among its waiters).
    var parked: Int { counts.withLock { $0.parked } }
    /// Whether the server is stopping.
    var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// A stream opened.
    func opened() { counts.withLock { $0.open += 1 } }
    /// A stream ended (or was dropped unread).
    func closed() { counts.withLock { $0.open -= 1 } }
    /// A stream parked (true) or woke (false).
    func parking(_ parked: Bool) { counts.withLock { $0.parked += parked ? 1 : -1 } }
    /// Ends every stream: each returns at its next step (a parked one once the notifier wakes it).
    func stop() { stopping.store(true, ordering: .relaxed) }
}
