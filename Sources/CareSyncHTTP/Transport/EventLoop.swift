import CEpoll
import Dispatch
import CareSyncLocking
#if canImport(Glibc)
import Glibc
#endif

/// A serial queue that owns a share of the connections. Their sockets sit in one epoll set per
/// loop, and one Dispatch read source on that set wakes the loop: each wake-up serves every ready
/// connection in a batch (per-connection Dispatch sources cost a thread wake-up and two
/// `epoll_ctl` calls per event). Connection state is touched only on `queue` (asserted in debug builds);
/// a timer on it sweeps the deadlines.
final class EventLoop: @unchecked Sendable {
    let queue: DispatchQueue
    /// Runs handler tasks on `queue` (only with `handlersOnEventLoops`).
    let executor: LoopExecutor
    /// A read buffer shared by the connections of this loop (one read at a time on a serial queue).
    let scratch: UnsafeMutableRawBufferPointer
    private let epollFD: Int32
    private let events: UnsafeMutablePointer<epoll_event>
    private static let batch: Int32 = 256
    private var source: (any DispatchSourceRead)?
    private var connections: [Int32: Connection] = [:]
    private var timer: (any DispatchSourceTimer)?
    /// Responses finished by handler tasks, waiting to be written on the queue; `scheduled` is
    /// set while a drain of them is already queued, so a burst of completions costs one wake-up.
    private let finished = Locked<(items: [(Connection, PreparedResponse)], scheduled: Bool)>(([], false))

    init(index: Int, tick: Duration) throws {
        let epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw HTTPServerError.system(call: "epoll_create1", errno: errno) }
        self.epollFD = epollFD
        queue = DispatchQueue(label: "caresync.http.loop.\(index)")
        executor = LoopExecutor(queue: queue)
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        events = UnsafeMutablePointer<epoll_event>.allocate(capacity: Int(Self.batch))
        let source = DispatchSource.makeReadSource(fileDescriptor: epollFD, queue: queue)
        source.setEventHandler { [weak self] in self?.drain() }
        source.setCancelHandler { Glibc.close(epollFD) }
        self.source = source
        source.resume()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let nanos = Int(ServerCore.nanoseconds(tick))
        timer.schedule(deadline: .now() + .nanoseconds(nanos), repeating: .nanoseconds(nanos), leeway: .nanoseconds(nanos / 4))
        timer.setEventHandler { [weak self] in self?.sweep() }
        self.timer = timer
        timer.resume()
    }

    /// Traps in debug builds when called off `queue`: what the loop owns is touched only there.
    @inline(__always)
    func assertOnLoop() {
        #if DEBUG
        dispatchPrecondition(condition: .onQueue(queue))
        #endif
    }

    deinit {
        scratch.deallocate()
        events.deallocate()
    }

    /// Serves every ready connection; more than a batch waiting makes the source fire again.
    private func drain() {
        assertOnLoop()
        while true {
            let count = epoll_wait(epollFD, events, Self.batch, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            for index in 0..<Int(count) {
                let event = events[index]
                connections[event.data.fd]?.handle(events: event.events)
            }
            if count < Self.batch { return }
        }
    }

    /// Hands a finished response to its connection on the queue (from any thread).
    func complete(_ connection: Connection, with response: PreparedResponse) {
        let schedule = finished.withLock { state -> Bool in
            state.items.append((connection, response))
            defer { state.scheduled = true }
            return !state.scheduled
        }
        if schedule { queue.async { self.sendFinished() } }
    }

    /// Writes every finished response (on the queue).
    private func sendFinished() {
        assertOnLoop()
        let items = finished.withLock { state -> [(Connection, PreparedResponse)] in
            defer {
                state.items = []
                state.scheduled = false
            }
            return state.items
        }
        for (connection, response) in items { connection.send(response) }
    }

    /// Adds a connection to the epoll set, reading (on the queue); false if the kernel refused.
    func register(_ connection: Connection) -> Bool {
        assertOnLoop()
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = connection.fd
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, connection.fd, &event) == 0 else { return false }
        connections[connection.fd] = connection
        return true
    }

    /// Changes what a connection waits for (level-triggered; errors and hang-ups always count).
    func setInterest(_ connection: Connection, read: Bool, write: Bool) {
        assertOnLoop()
        var event = epoll_event()
        event.events = (read ? EPOLLIN.rawValue : 0) | (write ? EPOLLOUT.rawValue : 0)
        event.data.fd = connection.fd
        epoll_ctl(epollFD, EPOLL_CTL_MOD, connection.fd, &event)
    }

    /// Takes a connection out of the set before its descriptor is closed (on the queue).
    func remove(_ connection: Connection) {
        assertOnLoop()
        epoll_ctl(epollFD, EPOLL_CTL_DEL, connection.fd, nil)
        if connections[connection.fd] === connection { connections[connection.fd] = nil }
    }

    /// Cuts off every connection whose deadline passed (on the queue).
    func sweep(now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        assertOnLoop()
        for connection in connections.values {
            connection.checkDeadline(now: now)
        }
    }

    /// Asks every connection to finish: idle ones close now, busy ones after their response.
    func beginShutdown() {
        assertOnLoop()
        for connection in connections.values { connection.beginShutdown() }
    }

    /// Closes every connection at once.
    func closeAll() {
        assertOnLoop()
        for connection in connections.values { connection.close() }
    }

    /// Stops the deadline timer and the epoll source (the set's descriptor closes with it).
    func stop() {
        timer?.cancel()
        timer = nil
        source?.cancel()
        source = nil
    }
}
