import CareSyncTestSupport
import Dispatch
import Foundation
import Testing
@testable import CareSyncHTTP

/// Deadlines driven by an injected clock: `EventLoop.sweep(now:)` with a chosen time, over a
/// socketpair instead of TCP, so nothing waits for real time to pass.
@Suite struct ConnectionDeadlineTests {
    struct Fixture {
        let loop: EventLoop
        let connection: Connection
        let peer: Int32
        /// When the connection started: no deadline can fall before this plus its length.
        let started: UInt64

        init(router: Router = TestServer.router()) throws {
            var configuration = TestServer.configuration(
                header: .seconds(100), body: .seconds(200), idle: .seconds(300), write: .seconds(400))
            configuration.eventLoopCount = 1
            let core = ServerCore(
                configuration: configuration,
                pipeline: RequestPipeline(responder: router, headFilter: nil, logger: TestServer.quietLogger),
                logger: TestServer.quietLogger)
            var pair: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else { throw TestHTTPClient.Failure.connect(errno) }
            _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
            var tv = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(pair[1], SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
            loop = try EventLoop(index: 99, tick: .seconds(3600))
            core.connectionCount.add(1, ordering: .relaxed)
            let connection = Connection(fd: pair[0], peer: "socketpair", loop: loop, core: core)
            self.connection = connection
            peer = pair[1]
            started = DispatchTime.now().uptimeNanoseconds
            loop.sync { connection.start() }
        }

        /// The phase once the loop has caught up.
        func phase() -> Connection.Phase { loop.sync { connection.phase } }

        /// Waits (briefly, in real time) until the loop has read what the peer sent.
        func waitFor(_ phase: Connection.Phase) async throws {
            var tries = 0
            while self.phase() != phase, tries < 400 {
                try await Task.sleep(for: .milliseconds(5))
                tries += 1
            }
        }

        /// Sweeps as if `offset` had passed since now: past any deadline of that length set so far.
        func sweep(after offset: Duration) {
            let now = DispatchTime.now().uptimeNanoseconds + ServerCore.nanoseconds(offset)
            loop.sync { loop.sweep(now: now) }
        }

        /// Sweeps at `offset` after the connection started: before any deadline longer than that,
        /// however long the test itself took to get here.
        func sweep(sinceStart offset: Duration) {
            let now = started + ServerCore.nanoseconds(offset)
            loop.sync { loop.sweep(now: now) }
        }

        func send(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { Glibc.send(peer, $0.baseAddress, $0.count, 0) } }

        /// Everything the peer receives until EOF.
        func receiveAll() -> String {
            var out: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = recv(peer, &chunk, chunk.count, 0)
                if n <= 0 { break }
                out += chunk[0..<n]
            }
            return String(decoding: out, as: UTF8.self)
        }

        func stop() {
            loop.sync {
                loop.closeAll()
                loop.stop()
            }
            Glibc.close(peer)
        }
    }

    @Test func idleConnectionClosesOnlyAfterTheIdleDeadline() async throws {
        let fixture = try Fixture()
        fixture.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
        // Idle again once the first request was answered: from now on the idle deadline applies.
        var tries = 0
        while fixture.loop.sync({ fixture.connection.awaitingFirstRequest || fixture.connection.phase != .idle }), tries < 400 {
            try await Task.sleep(for: .milliseconds(5))
            tries += 1
        }
        fixture.sweep(sinceStart: .seconds(299))
        #expect(fixture.phase() == .idle)
        fixture.sweep(after: .seconds(301))
        #expect(fixture.phase() == .closed)
        #expect(fixture.receiveAll().hasPrefix("HTTP/1.1 200 "))
        fixture.stop()
    }

    @Test func aConnectionThatSendsNothingClosesAtTheHeaderDeadlineFromAccept() async throws {
        let fixture = try Fixture()
        fixture.sweep(sinceStart: .seconds(99))
        #expect(fixture.phase() == .idle)
        // Before the change, the 300 s idle deadline applied until the first byte.
        fixture.sweep(after: .seconds(101))
        #expect(fixture.phase() == .closed)
        #expect(fixture.receiveAll() == "")
        fixture.stop()
    }

    @Test func partialHeadGets408AfterTheHeaderDeadline() async throws {
        let fixture = try Fixture()
        fixture.send("GET /hello HTTP/1.1\r\nHo")
        try await fixture.waitFor(.head)
        #expect(fixture.phase() == .head)
        fixture.sweep(sinceStart: .seconds(99))
        #expect(fixture.phase() == .head)
        fixture.sweep(after: .seconds(101))
        let answer = fixture.receiveAll()
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(answer.contains("\"code\":\"requestTimeout\""))
        fixture.stop()
    }

    @Test func partialBodyGets408AfterTheBodyDeadline() async throws {
        let fixture = try Fixture()
        fixture.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc")
        try await fixture.waitFor(.body)
        fixture.sweep(sinceStart: .seconds(199))
        #expect(fixture.phase() == .body)
        fixture.sweep(after: .seconds(201))
        #expect(fixture.receiveAll().hasPrefix("HTTP/1.1 408 "))
        fixture.stop()
    }

    @Test func aHandlerTakingLongIsNeverCutOff() async throws {
        let gate = AsyncStream<Void>.makeStream()
        var router = Router()
        router.get("/wait") { _, _ in
            for await _ in gate.stream { break }
            return .text("late")
        }
        let fixture = try Fixture(router: router)
        fixture.send("GET /wait HTTP/1.1\r\nHost: a\r\n\r\n")
        try await fixture.waitFor(.handling)
        fixture.sweep(after: .seconds(100_000))
        #expect(fixture.phase() == .handling)
        gate.continuation.yield()
        try await fixture.waitFor(.idle)
        #expect(fixture.phase() == .idle)
        fixture.stop()
    }
}
