import Dispatch
import Foundation
import HTTPTypes
import Logging
import CareSyncLocking
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on non-blocking sockets and Dispatch sources (epoll): no thread per connection.
public final class HTTPServer: Sendable {
    /// The configuration the server was made with.
    public let configuration: Configuration
    let core: ServerCore
    private let state = Locked<State>(State())

    private struct State {
        var started = false
        var stopped = false
        var port: Int?
        var listener: (any DispatchSourceRead)?
        var loops: [EventLoop] = []
        var nextLoop = 0
        var acceptPaused = false
    }

    /// Creates a server; nothing is bound until `start()`. `onRefusal` hears of every connection turned away.
    public init(
        configuration: Configuration = Configuration(), responder: any HTTPResponder,
        headFilter: (any RequestHeadFilter)? = nil, logger: Logger,
        onRefusal: @escaping @Sendable (ConnectionRefusal) -> Void = { _ in }
    ) {
        self.configuration = configuration
        let pipeline = RequestPipeline(responder: responder, headFilter: headFilter, logger: logger)
        self.core = ServerCore(configuration: configuration, pipeline: pipeline, logger: logger, onRefusal: onRefusal)
    }

    /// The bound port once started.
    public var port: Int? { state.withLock { $0.port } }

    /// Open connections right now.
    public var connectionCount: Int { core.connectionCount.load(ordering: .relaxed) }

    /// Binds, listens and starts accepting; returns the bound port (the chosen one for port 0).
    @discardableResult
    public func start() throws -> Int {
        try state.withLock { state in
            guard !state.started else { throw HTTPServerError.alreadyStarted }
            let fd = try Socket.listen(host: configuration.host, port: configuration.port, backlog: configuration.backlog)
            let port = Socket.boundPort(fd)
            let count = configuration.eventLoopCount > 0
                ? configuration.eventLoopCount : max(1, ProcessInfo.processInfo.activeProcessorCount)
            let shortest = [configuration.headerReadTimeout, configuration.bodyReadTimeout,
                            configuration.idleTimeout, configuration.writeTimeout].min() ?? .seconds(1)
            let tick = min(max(shortest / 4, .milliseconds(10)), .seconds(1))
            do {
                state.loops = try (0..<count).map { try EventLoop(index: $0, tick: tick) }
            } catch {
                Glibc.close(fd)
                throw error
            }
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: DispatchQueue(label: "caresync.http.accept"))
            source.setEventHandler { [weak self] in self?.acceptPending(fd) }
            source.setCancelHandler { Glibc.close(fd) }
            state.listener = source
            state.started = true
            state.port = port
            source.resume()
            core.logger.info("http.listening", metadata: ["http.host": .string(configuration.host), "http.port": .stringConvertible(port)])
            return port
        }
    }

    /// Accepts every pending connection; at the cap answers 503, over the share of its address 429, and closes
    /// (`ConnectionAdmission`); near the cap, a connection may only ask the probe paths.
    private func acceptPending(_ listener: Int32) {
        for _ in 0..<256 {
            guard let (fd, peer) = Socket.accept(listener) else {
                if errno == EMFILE || errno == ENFILE { pauseAccepting() }
                return
            }
            if core.draining.load(ordering: .relaxed) {
                Self.refuse(fd, HTTPError.unavailable("The server is shutting down."))
                continue
            }
            let decision = core.admission.decide(host: PeerAddress.host(of: peer), count: core.connectionCount.load(ordering: .relaxed))
            if case .refuse(let error, let reason) = decision {
                core.onRefusal(reason)
                Self.refuse(fd, error)
                continue
            }
            core.connectionCount.add(1, ordering: .relaxed)
            let loop = state.withLock { state -> EventLoop in
                state.nextLoop = (state.nextLoop + 1) % state.loops.count
                return state.loops[state.nextLoop]
            }
            let core = self.core
            loop.execute {
                Connection(fd: fd, peer: peer, loop: loop, core: core, probesOnly: decision == .probesOnly).start()
            }
        }
    }

    /// Out of descriptors: stop accepting for a moment instead of spinning.
    private func pauseAccepting() {
        let paused = state.withLock { state -> Bool in
            guard let listener = state.listener, !state.acceptPaused else { return false }
            listener.suspend()
            state.acceptPaused = true
            return true
        }
        guard paused else { return }
        core.logger.warning("http.accept.fdExhausted")
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { [weak self] in
            self?.state.withLock { state in
                guard state.acceptPaused else { return }
                state.acceptPaused = false
                state.listener?.resume()
            }
        }
    }

    /// Writes a canned problem response, shuts the write side and closes a moment later
    /// (after draining what the client sent, so the close is not a reset).
    static func refuse(_ fd: Int32, _ error: HTTPError) {
        var response = error.response()
        if response.headers[.retryAfter] == nil { response.headers[.retryAfter] = "1" }
        let bytes = ResponseEncoder.head(
            status: response.status, headers: response.headers,
            framing: .length(response.body.bytes?.count ?? 0), close: true, http10KeepAlive: false)
            + (response.body.bytes ?? [])
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        Glibc.shutdown(fd, Int32(SHUT_WR))
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(200)) {
            var sink = [UInt8](repeating: 0, count: 4096)
            while recv(fd, &sink, sink.count, Int32(MSG_DONTWAIT)) > 0 {}
            Glibc.close(fd)
        }
    }

    /// Stops accepting, closes idle connections, lets requests in flight finish for up to
    /// `gracePeriod` (their responses carry `Connection: close`), then closes everything and returns.
    public func shutdown(gracePeriod: Duration = .seconds(10)) async {
        let (listener, loops) = state.withLock { state -> ((any DispatchSourceRead)?, [EventLoop]) in
            guard state.started, !state.stopped else { return (nil, []) }
            state.stopped = true
            if state.acceptPaused {
                state.acceptPaused = false
                state.listener?.resume()
            }
            defer { state.listener = nil }
            return (state.listener, state.loops)
        }
        guard let listener else { return }
        core.draining.store(true, ordering: .relaxed)
        listener.cancel()
        for loop in loops { loop.execute { loop.beginShutdown() } }
        let clock = ContinuousClock()
        let end = clock.now + gracePeriod
        while core.connectionCount.load(ordering: .relaxed) > 0, clock.now < end {
            do { try await Task.sleep(for: .milliseconds(10)) } catch { break }
        }
        for loop in loops { loop.execute { loop.closeAll() } }
        for loop in loops {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                loop.execute {
                    loop.stop()
                    done.resume()
                }
            }
        }
        core.logger.info("http.stopped")
    }

    /// Serves until SIGTERM or SIGINT, then shuts down gracefully.
    public func runUntilTerminated(gracePeriod: Duration = .seconds(10)) async {
        await runUntilSignalled([SIGTERM, SIGINT], gracePeriod: gracePeriod, onSignalsInstalled: {})
    }

    /// Serves until one of `signals` arrives, calling `onSignalsInstalled` once the handlers are in
    /// place (tests use a signal no other suite listens for).
    func runUntilSignalled(_ signals: [Int32], gracePeriod: Duration, onSignalsInstalled: @Sendable () -> Void) async {
        let termination = TerminationSignal(signals)
        onSignalsInstalled()
        await termination.wait()
        await shutdown(gracePeriod: gracePeriod)
        termination.cancel()
    }
}

/// Failures of the server itself (binding, listening).
public enum HTTPServerError: Error, Sendable {
    /// A system call failed with `errno`.
    case system(call: String, errno: Int32)
    /// The host is not a numeric IPv4 or IPv6 address nor "localhost".
    case invalidHost(String)
    /// `start()` was called twice.
    case alreadyStarted
}
