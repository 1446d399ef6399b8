import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncHTTP

extension LiveTests {
    @Suite struct Deadlines {
        @Test func slowHeadGets408AndClose() async throws {
            let (server, port) = try TestServer.start(TestServer.shortDeadlines())
            let slow = try TestHTTPClient(port: port)
            slow.send("GET /hello HTTP/1.1\r\nHo")
            // Another client is served normally meanwhile.
            let other = try TestHTTPClient(port: port)
            other.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try await other.response().status == 200)
            let reply = try await slow.response()
            #expect(reply.status == 408)
            #expect(reply.text.contains("\"code\":\"requestTimeout\""))
            #expect(await slow.closed())
            await server.shutdown(gracePeriod: .seconds(1))
        }

        @Test func slowlorisTricklingBytesIsStillCutOff() async throws {
            let (server, port) = try TestServer.start(TestServer.shortDeadlines())
            let slow = try TestHTTPClient(port: port)
            let clock = ContinuousClock()
            let started = clock.now
            for byte in "GET /hello HTTP/1.1\r\nX-A: b".utf8 {
                slow.send([byte])
                try await Task.sleep(for: .milliseconds(40))
                if clock.now - started > .milliseconds(600) { break }
            }
            let reply = try await slow.response()
            #expect(reply.status == 408)
            #expect(await slow.closed())
            await server.shutdown(gracePeriod: .seconds(1))
        }

        @Test func slowBodyGets408AndClose() async throws {
            let (server, port) = try TestServer.start(TestServer.shortDeadlines())
            let client = try TestHTTPClient(port: port)
            client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nabc")
            let reply = try await client.response()
            #expect(reply.status == 408)
            #expect(await client.closed())
            await server.shutdown(gracePeriod: .seconds(1))
        }

        @Test func idleKeepAliveIsClosedSilently() async throws {
            let (server, port) = try TestServer.start(TestServer.shortDeadlines())
            let client = try TestHTTPClient(port: port)
            client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(try await client.response().status == 200)
            // "Not before the deadline" is checked exactly with an injected clock (ConnectionDeadlineTests);
            // here, over a real socket: closed once it passes, with nothing written.
            #expect(await client.closed(within: 2))
            #expect(client.leftover.isEmpty)
            await server.shutdown(gracePeriod: .seconds(1))
        }

        @Test func clientThatDoesNotReadIsCutOffByTheWriteDeadline() async throws {
            var router = Router()
            router.get("/huge") { _, _ in Response(body: .bytes([UInt8](repeating: 65, count: 32 * 1024 * 1024))) }
            let (server, port) = try TestServer.start(TestServer.shortDeadlines(), responder: router)
            let client = try TestHTTPClient(port: port)
            client.send("GET /huge HTTP/1.1\r\nHost: a\r\n\r\n")
            let clock = ContinuousClock()
            let accepted = clock.now + .seconds(2)
            while server.connectionCount == 0, clock.now < accepted {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(server.connectionCount == 1)
            let limit = clock.now + .seconds(3)
            while server.connectionCount > 0, clock.now < limit {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(server.connectionCount == 0)
            await server.shutdown(gracePeriod: .seconds(1))
        }
    }
}
