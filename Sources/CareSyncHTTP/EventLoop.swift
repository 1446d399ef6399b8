import Dispatch

/// A serial queue that owns a share of the connections: their sources fire on it, their state is
/// touched only on it, and a timer on it sweeps their deadlines.
final class EventLoop: @unchecked Sendable {
    let queue: DispatchQueue
    /// Runs handler tasks on `queue` (only with `handlersOnEventLoops`).
    let executor: LoopExecutor
    /// A read buffer shared by the connections of this loop (one read at a time on a serial queue).
    let scratch: UnsafeMutableRawBufferPointer
    private var connections: [ObjectIdentifier: Connection] = [:]
    private var timer: DispatchSourceTimer?

    init(index: Int, tick: Duration) {
        queue = DispatchQueue(label: "caresync.http.loop.\(index)")
        executor = LoopExecutor(queue: queue)
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let nanos = Int(ServerCore.nanoseconds(tick))
        timer.schedule(deadline: .now() + .nanoseconds(nanos), repeating: .nanoseconds(nanos), leeway: .nanoseconds(nanos / 4))
        timer.setEventHandler { [weak self] in self?.sweep() }
        self.timer = timer
        timer.resume()
    }

    deinit {
        scratch.deallocate()
    }

    /// Adds a connection (on the queue).
    func register(_ connection: Connection) {
        connections[ObjectIdentifier(connection)] = connection
    }

    /// Forgets a closed connection (on the queue).
    func remove(_ connection: Connection) {
        connections[ObjectIdentifier(connection)] = nil
    }

    /// Cuts off every connection whose deadline passed (on the queue).
    func sweep(now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        for connection in connections.values {
            connection.checkDeadline(now: now)
        }
    }

    /// Asks every connection to finish: idle ones close now, busy ones after their response.
    func beginShutdown() {
        for connection in connections.values { connection.beginShutdown() }
    }

    /// Closes every connection at once.
    func closeAll() {
        for connection in connections.values { connection.close() }
    }

    /// Stops the deadline timer.
    func stop() {
        timer?.cancel()
        timer = nil
    }
}
