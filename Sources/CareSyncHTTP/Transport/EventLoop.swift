import CEpoll
import Dispatch
import Foundation
import CareSyncLocking
#if canImport(Glibc)
import Glibc
#endif

/// A thread that owns a share of the connections. Their sockets sit in one epoll set per loop, and the thread
/// itself waits in `epoll_wait` on that set: each wake-up serves every ready connection in a batch, with no other
/// thread between the kernel and the loop (a Dispatch read source on the set cost a wake-up of Dispatch's manager
/// thread, a write to it and a poke of a worker for every batch). Work from other threads (finished responses,
/// new connections, writes from tasks) is queued with `execute`, which wakes a sleeping loop through an eventfd in
/// the same set. Connection state is touched only on the loop's thread (asserted in debug builds); the loop
/// sweeps the deadlines every tick.
final class EventLoop: @unchecked Sendable {
    /// Runs handler tasks on the loop's thread (only with `handlersOnEventLoops`).
    private(set) var executor: LoopExecutor!
    /// A read buffer shared by the connections of this loop (one read at a time on the loop's thread).
    let scratch: UnsafeMutableRawBufferPointer
    private let epollFD: Int32
    /// Written by `execute` to wake the loop from `epoll_wait`.
    private let wakeFD: Int32
    private let events: UnsafeMutablePointer<epoll_event>
    private static let batch: Int32 = 256
    private var connections: [Int32: Connection] = [:]
    /// The tick of the deadline sweep, and when the next sweep is due (on the loop's thread).
    private let tickNanoseconds: UInt64
    private var nextSweep: UInt64
    /// Jobs queued by `execute`; `sleeping` is set while the loop waits (or is about to) with nothing queued, so only
    /// the first job queued meanwhile writes to the eventfd. `stopped` (at shutdown) ends the deadline sweeps.
    private let queued = Locked<(jobs: [() -> Void], sleeping: Bool, stopped: Bool)>(([], false, false))
    /// The loop's thread, for the debug assertion (set by the thread itself before anything runs on it).
    private var thread = pthread_t()

    init(index: Int, tick: Duration) throws {
        let epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw HTTPServerError.system(call: "epoll_create1", errno: errno) }
        let wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeFD >= 0 else {
            Glibc.close(epollFD)
            throw HTTPServerError.system(call: "eventfd", errno: errno)
        }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = wakeFD
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event) == 0 else {
            let failure = errno
            Glibc.close(wakeFD); Glibc.close(epollFD)
            throw HTTPServerError.system(call: "epoll_ctl", errno: failure)
        }
        self.epollFD = epollFD
        self.wakeFD = wakeFD
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        events = UnsafeMutablePointer<epoll_event>.allocate(capacity: Int(Self.batch))
        tickNanoseconds = max(1, ServerCore.nanoseconds(tick))
        nextSweep = DispatchTime.now().uptimeNanoseconds + tickNanoseconds
        executor = LoopExecutor(loop: self)
        // The thread holds the loop only during a turn: once nothing else does (the server and its connections
        // are gone), the loop is freed at the end of a turn and the thread ends.
        let thread = Thread { [weak self] in
            self?.thread = pthread_self()
            while let loop = self { loop.turn() }
        }
        thread.name = "caresync.http.loop.\(index)"
        thread.start()
    }

    /// Traps in debug builds when called off the loop's thread: what the loop owns is touched only there.
    @inline(__always)
    func assertOnLoop() {
        #if DEBUG
        precondition(pthread_equal(pthread_self(), thread) != 0, "called off its event loop's thread")
        #endif
    }

    deinit {
        Glibc.close(wakeFD)
        Glibc.close(epollFD)
        scratch.deallocate()
        events.deallocate()
    }

    /// Runs `job` on the loop's thread, after the jobs queued before it (from any thread).
    func execute(_ job: @escaping @Sendable () -> Void) {
        let wake = queued.withLock { state -> Bool in
            state.jobs.append(job)
            defer { state.sleeping = false }
            return state.sleeping
        }
        if wake {
            var one: UInt64 = 1
            _ = Glibc.write(wakeFD, &one, 8)
        }
    }

    /// Runs `job` on the loop's thread and waits for it (tests; never from the loop itself).
    func sync<T>(_ job: @escaping () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: T?
        nonisolated(unsafe) let job = job
        execute {
            result = job()
            done.signal()
        }
        done.wait()
        return result!
    }

    /// One turn of the loop: the queued jobs, the deadline sweep when due, then the ready sockets (waiting for them,
    /// at most until the next sweep, when nothing was queued). A stopped loop only runs jobs, waking every second.
    private func turn() {
        let (jobs, stopped) = queued.withLock { state in
            defer { state.jobs = [] }
            return (state.jobs, state.stopped)
        }
        for job in jobs { job() }
        let now = DispatchTime.now().uptimeNanoseconds
        if now >= nextSweep, !stopped {
            sweep(now: now)
            nextSweep = now + tickNanoseconds
        }
        // Sleep only when nothing was queued meanwhile; a job queued after this sees `sleeping` and wakes us.
        let sleeps = jobs.isEmpty && queued.withLock { state in
            state.sleeping = state.jobs.isEmpty
            return state.sleeping
        }
        let untilSweep = stopped ? 1_000 : Int32(clamping: (nextSweep - min(now, nextSweep)) / 1_000_000 + 1)
        serveReady(timeout: sleeps ? untilSweep : 0)
        if sleeps { queued.withLock { $0.sleeping = false } }
    }

    /// Waits up to `timeout` ms for ready sockets and serves every one; more than a batch are served next turn.
    private func serveReady(timeout: Int32) {
        assertOnLoop()
        let count = epoll_wait(epollFD, events, Self.batch, timeout)
        guard count > 0 else { return }
        for index in 0..<Int(count) {
            let event = events[index]
            if event.data.fd == wakeFD {
                var value: UInt64 = 0
                _ = Glibc.read(wakeFD, &value, 8)
            } else {
                connections[event.data.fd]?.handle(events: event.events)
            }
        }
    }

    /// Hands a finished response to its connection on the loop (from any thread); a burst of them costs the loop
    /// one wake-up (`execute`).
    func complete(_ connection: Connection, with response: PreparedResponse) {
        execute { connection.send(response) }
    }

    /// Adds a connection to the epoll set, reading (on the loop); false if the kernel refused.
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

    /// Takes a connection out of the set before its descriptor is closed (on the loop).
    func remove(_ connection: Connection) {
        assertOnLoop()
        epoll_ctl(epollFD, EPOLL_CTL_DEL, connection.fd, nil)
        if connections[connection.fd] === connection { connections[connection.fd] = nil }
    }

    /// Cuts off every connection whose deadline passed (on the loop).
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

    /// Stops sweeping deadlines (after `closeAll`, at shutdown); queued jobs still run until the loop is freed.
    func stop() {
        assertOnLoop()
        queued.withLock { $0.stopped = true }
    }
}
