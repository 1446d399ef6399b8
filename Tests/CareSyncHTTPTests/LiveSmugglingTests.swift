import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncHTTP

extension LiveTests {
    @Suite struct Smuggling {
        @Test(arguments: SmugglingCase.all)
        func answersTheExactStatusAndCloses(_ testCase: SmugglingCase) async throws {
            let (server, port) = try TestServer.start()
            let client = try TestHTTPClient(port: port)
            client.send(testCase.raw)
            let reply = try await client.response()
            #expect(reply.status == testCase.status, "\(testCase.name)")
            #expect(reply.header("Content-Type") == "application/problem+json")
            #expect(reply.header("Connection") == "close")
            #expect(await client.closed(), "\(testCase.name) must close")
            // Nothing after the error: a smuggled second request is never answered.
            #expect(client.leftover.isEmpty, "\(testCase.name)")
            await server.shutdown(gracePeriod: .seconds(1))
        }

        @Test func validRequestsKeepTheConnectionOpen() async throws {
            let (server, port) = try TestServer.start()
            let client = try TestHTTPClient(port: port)
            client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 00005\r\n\r\nhello")
            #expect(try await client.response().text == "hello")
            client.send("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n000005\r\nhello\r\n0\r\n\r\n")
            #expect(try await client.response().text == "hello")
            #expect(await !client.closed(within: 0.1))
            await server.shutdown(gracePeriod: .seconds(1))
        }
    }
}
