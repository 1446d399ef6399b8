import Foundation
import Testing
@testable import CareSyncServer

@Suite struct HealthProbeTests {
    @Test func readyServerExitsZeroAndRequestIsWellFormed() throws {
        let server = try StubHTTPServer(response: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        defer { server.stop() }
        let outcome = HealthProbe(host: "0.0.0.0", port: server.port).run()
        #expect(outcome == .status(200))
        #expect(outcome.exitCode == 0)
        #expect(server.request.hasPrefix("GET /readyz HTTP/1.1\r\n"))
        #expect(server.request.contains("Host: 127.0.0.1:\(server.port)\r\n"))
    }

    @Test func notReadyServerExitsOne() throws {
        let server = try StubHTTPServer(response: "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
        defer { server.stop() }
        let outcome = HealthProbe(host: "127.0.0.1", port: server.port).run()
        #expect(outcome == .status(503))
        #expect(outcome.exitCode == 1)
    }

    @Test func downServerExitsOne() throws {
        let port = StubHTTPServer.unusedPort()
        #expect(port > 0)
        let outcome = HealthProbe(host: "127.0.0.1", port: port, timeout: .seconds(2)).run()
        guard case .failed(let reason) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(reason.contains("refused"), "\(reason)")
        #expect(outcome.exitCode == 1)
    }

    @Test func silentServerTimesOut() throws {
        let server = try StubHTTPServer(response: nil)
        defer { server.stop() }
        let start = ContinuousClock.now
        let outcome = HealthProbe(host: "127.0.0.1", port: server.port, timeout: .milliseconds(300)).run()
        #expect(outcome == .failed("timed out"))
        #expect(ContinuousClock.now - start < .seconds(10), "the 300 ms timeout, not the silent server, ends the probe")
    }

    @Test(arguments: [
        ("HTTP/1.1 200 OK", HealthProbe.Outcome.status(200)),
        ("HTTP/1.0 204 No Content", .status(204)),
        ("SSH-2.0-OpenSSH", .failed("not an HTTP response")),
        ("HTTP/1.1 20 OK", .failed("not an HTTP response")),
    ])
    func statusLineParsing(line: String, expected: HealthProbe.Outcome) {
        #expect(HealthProbe.parseStatusLine(line) == expected)
    }
}
