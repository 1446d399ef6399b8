import Foundation
import Testing
import CareSyncTestSupport
@testable import CareSyncServer

/// SIGTERM while a request is in flight: the response still arrives, then `serve` exits 0.
@Suite(.serialized) struct ServeShutdownTests {
    @Test func sigtermWithALongPollInFlightAnswersItAndExitsZero() async throws {
        typealias CLI = CommandLineFailClosedTests
        let sandbox = try CLI.Sandbox.make()
        defer { sandbox.remove() }
        #expect(try await CLI.run(["patient", "create", "P1"], environment: sandbox.environment).status == 0)
        let (tokenStatus, secret) = try await onDedicatedThread { () throws -> (Int32, String) in
            let (ended, output) = try ChildProcess.run(CLI.executable, ["token", "create", "--role", "device", "--patient", "P1"],
                                                       environment: sandbox.environment)
            return (ended.status, String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(tokenStatus == 0 && !secret.isEmpty)

        let server = try await ServeProcess.start(executable: CLI.executable, environment: sandbox.environment)
        defer { server.stop() }
        let serve = server.process
                let auth = [("Authorization", "Bearer \(secret)")]

        let first = try await TestHTTPClient.send(port: server.port, method: "GET", path: "/v1/patients/P1/changes", headers: auth, body: [])
        #expect(first.status == 200)
        let anchor = try #require(
            (try JSONSerialization.jsonObject(with: Data(first.body)) as? [String: Any])?["anchor"] as? String)

        // A long poll that would wait 30 s, in flight when SIGTERM arrives.
        let started = ContinuousClock.now
        let poll = Task {
            try await TestHTTPClient.send(port: server.port, method: "GET", path: "/v1/patients/P1/changes?wait=30&anchor=\(anchor)", headers: auth, body: [])
        }
        // Parked: the server's own gauge says so.
        try await Eventually.until {
            let metrics = try TestHTTPClient.sendBlocking(port: server.port, method: "GET", path: "/metrics")
            return String(decoding: metrics.body, as: UTF8.self).contains("caresync_feed_parked_long_polls 1")
        }
        serve.terminate()
        let reply = try await poll.value
        #expect(reply.status == 200, "in-flight request must be answered")
        #expect(ContinuousClock.now - started < .seconds(20), "shutdown must not wait out the long poll")
        let ended = try await serve.exited()
        #expect(ended.reason == .exit)
        #expect(ended.status == 0)
    }
}
