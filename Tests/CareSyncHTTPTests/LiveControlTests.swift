import CareSyncTestSupport
import Foundation
import HTTPTypes
import Testing
@testable import CareSyncHTTP

extension LiveTests {
    @Suite struct Control {
        static let authFilter = ClosureHeadFilter { head, _ in
            guard head.headers[.authorization] == "Bearer good" else { throw HTTPError.unauthorized("bad token") }
        }

        @Test func continueIsSentOnlyAfterTheHeadIsAccepted() async throws {
            let (server, port) = try TestServer.start(headFilter: Self.authFilter)
            let client = try TestHTTPClient(port: port)
            client.send("POST /echo HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer good\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            #expect(try await client.response().status == 100)
            client.send("body")
            let reply = try await client.response()
            #expect(reply.status == 200)
            #expect(reply.text == "body")
            #expect(await !client.closed(within: 0.1))
            await server.shutdown(gracePeriod: .seconds(1))
        }

        @Test func refusedHeadGets401WithoutContinueAndCloses() async throws {
            let (server, port) = try TestServer.start(headFilter: Self.authFilter)
            let client = try TestHTTPClient(port: port)
            client.send("POST /echo HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer bad\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            let reply = try await client.response()
            #expect(reply.status == 401)
            #expect(reply.header("WWW-Authenticate") == "Bearer")
            #expect(reply.header("Connection") == "close")
            #expect(reply.text.contains("\"code\":\"unauthorized\""))
            #expect(await client.closed())
            await server.shutdown(gracePeriod: .seconds(1))
        }

        @Test func refusedHeadWhoseBodyCameAlongIsStill401AndKeepsTheConnection() async throws {
            let (server, port) = try TestServer.start(headFilter: Self.authFilter)
            let client = try TestHTTPClient(port: port)
            client.send("POST /echo HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer bad\r\nContent-Length: 4\r\n\r\nbody")
            let refused = try await client.response()
            #expect(refused.status == 401)
            #expect(refused.header("Connection") != "close")
            client.send("POST /echo HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer good\r\nContent-Length: 2\r\n\r\nok")
            let reply = try await client.response()
            #expect(reply.status == 200)
            #expect(reply.text == "ok")
            await server.shutdown(gracePeriod: .seconds(1))
        }

        @Test func tooLargeBodyIs413BeforeContinue() async throws {
            var configuration = TestServer.configuration()
            configuration.maxBodySize = 100
            let (server, port) = try TestServer.start(configuration, headFilter: Self.authFilter)
            let client = try TestHTTPClient(port: port)
            client.send("POST /echo HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer good\r\nExpect: 100-continue\r\nContent-Length: 101\r\n\r\n")
            let reply = try await client.response()
            #expect(reply.status == 413)
            #expect(await client.closed())
            await server.shutdown(gracePeriod: .seconds(1))
        }

        @Test func connectionCapAnswers503AndCloses() async throws {
            var configuration = TestServer.configuration()
            configuration.maxConnections = 2
            let (server, port) = try TestServer.start(configuration)
            let first = try TestHTTPClient(port: port)
            let second = try TestHTTPClient(port: port)
            for client in [first, second] {
                client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(try await client.response().status == 200)
            }
            let third = try TestHTTPClient(port: port)
            third.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            let reply = try await third.response()
            #expect(reply.status == 503)
            #expect(reply.text.contains("\"code\":\"unavailable\""))
            #expect(await third.closed())
            first.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try await first.response().status == 200)
            await server.shutdown(gracePeriod: .seconds(1))
        }

        @Test func gracefulShutdownFinishesTheRequestInFlight() async throws {
            let (server, port) = try TestServer.start()
            let busy = try TestHTTPClient(port: port)
            let idle = try TestHTTPClient(port: port)
            idle.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try await idle.response().status == 200)
            busy.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n")
            // Shut down only once the slow request is in a handler (a request still unread in the
            // socket is, rightly, closed with its idle connection).
            let clock = ContinuousClock()
            let admitted = clock.now + .seconds(10)
            while server.core.inFlight.load(ordering: .relaxed) == 0, clock.now < admitted {
                try await Task.sleep(for: .milliseconds(2))
            }
            let started = clock.now
            async let stopped: Void = server.shutdown(gracePeriod: .seconds(20))
            // At once, not at the 20 s grace period (5 s of room for a loaded machine).
            #expect(await idle.closed(within: 5))
            let reply = try await busy.response()
            #expect(reply.status == 200)
            #expect(reply.text == "slow")
            #expect(reply.header("Connection") == "close")
            await stopped
            #expect(clock.now - started < .seconds(10), "shutdown returns when the last request is done, not at the grace period")
            #expect(server.connectionCount == 0)
            #expect(throws: TestHTTPClient.Failure.self) { _ = try TestHTTPClient(port: port) }
        }

        @Test func shutdownGracePeriodBoundsASlowHandler() async throws {
            var router = Router()
            let entered = AsyncStream<Void>.makeStream()
            router.get("/forever") { _, _ in
                entered.continuation.yield()
                try await Task.sleep(for: .seconds(30))
                return .text("late")
            }
            let (server, port) = try TestServer.start(responder: router)
            let client = try TestHTTPClient(port: port)
            client.send("GET /forever HTTP/1.1\r\nHost: a\r\n\r\n")
            for await _ in entered.stream { break }  // the handler runs: the request is in flight
            let clock = ContinuousClock()
            let started = clock.now
            await server.shutdown(gracePeriod: .milliseconds(200))
            #expect(clock.now - started < .seconds(15), "the grace period, not the handler's 30 s, ends the shutdown")
            #expect(await client.closed())
        }

        @Test func thousandParkedRequestsHoldNoThreads() async throws {
            let parked = Shared<[CheckedContinuation<Void, Never>]>([])
            var router = Router()
            router.get("/wait") { _, _ in
                await withCheckedContinuation { continuation in parked.update { $0.append(continuation) } }
                return .text("released")
            }
            // Connecting 1,000 clients takes a while: a long idle deadline keeps the first ones open.
            let configuration = TestServer.configuration(header: .seconds(10), idle: .seconds(10))
            let (server, port) = try TestServer.start(configuration, responder: router)
            let clients = try (0..<1000).map { _ in try TestHTTPClient(port: port) }
            for client in clients { client.send("GET /wait HTTP/1.1\r\nHost: a\r\n\r\n") }
            let clock = ContinuousClock()
            let limit = clock.now + .seconds(10)
            while parked.update({ $0.count }) < 1000, clock.now < limit {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(parked.update { $0.count } == 1000)
            // With 1,000 requests parked, another request is still served at once.
            let other = try TestHTTPClient(port: port)
            other.send("GET /wait HTTP/1.1\r\nHost: a\r\n\r\n")
            while parked.update({ $0.count }) < 1001, clock.now < limit {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(parked.update { $0.count } == 1001)
            for continuation in parked.update({ list in defer { list = [] }; return list }) { continuation.resume() }
            for client in clients + [other] {
                #expect(try await client.response().text == "released")
            }
            await server.shutdown(gracePeriod: .seconds(1))
        }
    }
}

extension LiveTests {
    @Suite struct HandlersOnEventLoops {
        @Test func keepAlivePipeliningAndParkingWorkOnLoopExecutors() async throws {
            var configuration = TestServer.configuration()
            configuration.handlersOnEventLoops = true
            configuration.eventLoopCount = 1
            let released = AsyncStream<Void>.makeStream()
            var router = TestServer.router()
            router.get("/park") { _, _ in
                for await _ in released.stream { break }
                return .text("unparked")
            }
            let (server, port) = try TestServer.start(configuration, responder: router)
            let parked = try TestHTTPClient(port: port)
            parked.send("GET /park HTTP/1.1\r\nHost: a\r\n\r\n")
            // The one loop is not held by the parked handler: another connection is served.
            let client = try TestHTTPClient(port: port)
            client.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\nPOST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi")
            #expect(try await client.response().text == "slow")
            #expect(try await client.response().text == "hi")
            released.continuation.yield()
            #expect(try await parked.response().text == "unparked")
            await server.shutdown(gracePeriod: .seconds(1))
        }
    }
}

extension LiveTests {
    @Suite struct Signals {
        // SIGUSR2 stands in for SIGTERM (same code path): a real SIGTERM would also reach any other
        // suite of this test process that serves until terminated.
        @Test func aSignalFinishesTheRequestInFlightThenStops() async throws {
            var router = TestServer.router()
            let entered = AsyncStream<Void>.makeStream()
            router.get("/held") { _, _ in
                entered.continuation.yield()
                try await Task.sleep(for: .milliseconds(300))
                return .text("slow")
            }
            let (server, port) = try TestServer.start(responder: router)
            let installed = AsyncStream<Void>.makeStream()
            let running = Task {
                await server.runUntilSignalled([SIGUSR2], gracePeriod: .seconds(3)) { installed.continuation.yield() }
            }
            for await _ in installed.stream { break }
            let client = try TestHTTPClient(port: port)
            client.send("GET /held HTTP/1.1\r\nHost: a\r\n\r\n")
            for await _ in entered.stream { break }  // in flight when the signal arrives
            kill(getpid(), SIGUSR2)
            let reply = try await client.response()
            #expect(reply.status == 200)
            #expect(reply.header("Connection") == "close")
            await running.value
            #expect(server.connectionCount == 0)
            #expect(throws: TestHTTPClient.Failure.self) { _ = try TestHTTPClient(port: port) }
        }
    }
}

extension LiveTests {
    @Suite struct Concurrency {
        @Test func requestsBeyondTheHandlerLimitGet503() async throws {
            var configuration = TestServer.configuration()
            configuration.maxConcurrentRequests = 1
            let gate = AsyncStream<Void>.makeStream()
            let entered = AsyncStream<Void>.makeStream()
            var router = TestServer.router()
            router.get("/park") { _, _ in
                entered.continuation.yield()
                for await _ in gate.stream { break }
                return .text("done")
            }
            let (server, port) = try TestServer.start(configuration, responder: router)
            let parked = try TestHTTPClient(port: port)
            parked.send("GET /park HTTP/1.1\r\nHost: a\r\n\r\n")
            for await _ in entered.stream { break }  // the one handler slot is taken
            let other = try TestHTTPClient(port: port)
            other.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            let refused = try await other.response()
            #expect(refused.status == 503)
            #expect(refused.text.contains("\"code\":\"unavailable\""))
            gate.continuation.yield()
            #expect(try await parked.response().text == "done")
            other.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try await other.response().status == 200)
            await server.shutdown(gracePeriod: .seconds(1))
        }
    }
}
