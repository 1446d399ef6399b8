import CEpoll
import Dispatch
import HTTPTypes
#if canImport(Glibc)
import Glibc
#endif

/// One client connection. Every property is touched only on its loop's thread (each entry point asserts it in
/// debug builds); handlers run in tasks elsewhere and hop back to the loop with their results.
final class Connection: @unchecked Sendable {
    /// Where the connection is in its request cycle; each phase has at most one deadline.
    enum Phase: Equatable {
        /// Waiting for the first byte of a request (the header deadline from accept for the first, then the idle deadline).
        case idle
        /// Part of a head received (header deadline).
        case head
        /// Head complete, the head filter is deciding; reading paused.
        case filtering
        /// Reading the body (body deadline).
        case body
        /// The handler runs; reading paused.
        case handling
        /// The response is being written (write deadline while bytes are pending).
        case responding
        /// Response sent, write side shut: reading and discarding until the peer closes (no RST).
        case lingering
        /// Closed.
        case closed
    }

    /// The request being read or handled.
    struct Current {
        var head: RequestHead
        var keepAlive: Bool
        var expectContinue: Bool
        var body: [UInt8] = []
        var context: RequestContext?
    }

    let fd: Int32
    let peer: String
    /// The peer's host, as connection limits count it.
    let host: String
    /// Whether the connection came in near the cap: one request to a probe path, then close.
    let probesOnly: Bool
    /// Whether no request has been received yet: the header deadline then runs from accept, not from the first byte.
    var awaitingFirstRequest = true
    let loop: EventLoop
    let core: ServerCore
    var parser: RequestParser
    var phase: Phase = .idle
    /// Uptime nanoseconds after which the current phase is cut off; 0 for none.
    var deadline: UInt64 = 0
    var buffer: [UInt8] = []
    var readIndex = 0
    var current: Current?
    var closeAfterResponse = false
    /// Whether the connection wants readable events (off while too much is buffered, and after EOF).
    var wantRead = true
    /// Whether the connection wants writable events (on while bytes are pending).
    var wantWrite = false
    private var registeredRead = true
    private var registeredWrite = false
    var pending: [UInt8] = []
    var pendingIndex = 0
    var onDrained: [(Bool) -> Void] = []
    /// The task answering the current request, then the one pumping a streamed body; cancelled when the
    /// client goes away before the answer (or during the stream).
    var handler: HandlerTask?

    init(fd: Int32, peer: String, loop: EventLoop, core: ServerCore, probesOnly: Bool = false) {
        self.fd = fd
        self.peer = peer
        host = PeerAddress.host(of: peer)
        self.probesOnly = probesOnly
        self.loop = loop
        self.core = core
        self.parser = RequestParser(limits: core.configuration.parserLimits)
    }

    /// The header deadline of a connection in the probe reserve.
    static let probeHeaderTimeout: Duration = .seconds(1)

    /// Registers with the loop's epoll set and starts reading (on the loop).
    func start() {
        loop.assertOnLoop()
        guard loop.register(self) else {
            phase = .closed
            core.connectionCount.subtract(1, ordering: .relaxed)
            core.admission.release(host: host)
            Glibc.close(fd)
            return
        }
        // A client gets the header deadline from accept for its first request: a socket that sends no byte
        // holds its slot no longer than one that sends its head slowly. A probe sends its head at once, so a
        // slot of the probe reserve is held a second at most by one that does not.
        let header = core.configuration.headerReadTimeout
        setDeadline(probesOnly ? min(header, Self.probeHeaderTimeout) : header)
        if core.draining.load(ordering: .relaxed) { closeAfterResponse = true }
    }

    /// Reacts to what epoll reported for this socket.
    func handle(events: UInt32) {
        loop.assertOnLoop()
        let failed = events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0
        if failed, !wantRead {
            // Hang-ups are reported even without interest: with reading off, nobody would notice.
            close()
            return
        }
        if events & EPOLLOUT.rawValue != 0 { flush() }
        if phase != .closed, wantRead, failed || events & EPOLLIN.rawValue != 0 { readable() }
    }

    /// Tells epoll what the connection waits for now, if that changed.
    private func updateInterest() {
        guard phase != .closed, wantRead != registeredRead || wantWrite != registeredWrite else { return }
        registeredRead = wantRead
        registeredWrite = wantWrite
        loop.setInterest(self, read: wantRead, write: wantWrite)
    }

    /// Sets the deadline `duration` from now.
    func setDeadline(_ duration: Duration) {
        deadline = DispatchTime.now().uptimeNanoseconds + ServerCore.nanoseconds(duration)
    }

    /// Reads what the socket has and parses it. While a request is being handled, reading goes on
    /// (pipelined bytes are buffered, an EOF is noticed) until `maxPipelineBuffer` bytes wait;
    /// keeping the source armed spares two `epoll_ctl` calls per request.
    func readable() {
        loop.assertOnLoop()
        switch phase {
        case .closed:
            return
        case .filtering, .handling, .responding:
            if buffer.count - readIndex >= core.configuration.maxPipelineBuffer {
                suspendReading()
                return
            }
        case .idle, .head, .body, .lingering:
            break
        }
        let count = recv(fd, loop.scratch.baseAddress, loop.scratch.count, 0)
        if count > 0 {
            if phase == .lingering { return }
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: loop.scratch[0..<count]))
            if phase == .idle || phase == .head || phase == .body { process() }
        } else if count == 0 {
            peerClosed()
        } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
            close()
        }
    }

    /// The client closed its side: an unfinished request is dropped, an answered one still completes.
    private func peerClosed() {
        loop.assertOnLoop()
        switch phase {
        case .idle, .head, .body, .lingering:
            close()
        case .filtering, .handling, .responding:
            closeAfterResponse = true
            suspendReading()
            // Nobody will read the answer: a parked long poll (or an event stream between events) frees its
            // place now instead of at its deadline.
            if phase == .handling || phase == .responding { handler?.cancel() }
        case .closed:
            break
        }
    }

    /// Stops waiting for input (the socket stays in the epoll set).
    func suspendReading() {
        wantRead = false
        updateInterest()
    }

    /// Waits for input again.
    func resumeReading() {
        wantRead = true
        updateInterest()
    }

    /// Waits for the socket to take more output, or stops waiting.
    func waitForWritable(_ wait: Bool) {
        wantWrite = wait
        updateInterest()
    }

    /// Cuts off a phase whose deadline passed: 408 for a slow head or body, plain close otherwise.
    func checkDeadline(now: UInt64) {
        loop.assertOnLoop()
        guard deadline != 0, now >= deadline, phase != .closed else { return }
        switch phase {
        case .idle, .responding, .lingering:
            close()
        case .head, .body:
            deadline = 0
            fail(with: HTTPError(.requestTimeout, code: .requestTimeout, detail: "The request was not received in time."))
        case .filtering, .handling, .closed:
            break
        }
    }

    /// Shutdown: an idle connection closes now, a busy one after its response.
    func beginShutdown() {
        loop.assertOnLoop()
        closeAfterResponse = true
        if phase == .lingering || (phase == .idle && readIndex == buffer.count) { close() }
    }

    /// Takes the socket out of the epoll set, closes it and forgets the connection.
    func close() {
        loop.assertOnLoop()
        guard phase != .closed else { return }
        phase = .closed
        deadline = 0
        handler?.cancel()
        handler = nil
        loop.remove(self)
        Glibc.close(fd)
        core.connectionCount.subtract(1, ordering: .relaxed)
        core.admission.release(host: host)
        let waiters = onDrained
        onDrained = []
        for waiter in waiters { waiter(false) }
        buffer = []
        pending = []
    }
}
