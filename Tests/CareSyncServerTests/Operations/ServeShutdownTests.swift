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
            let tokenProcess = Process()
            tokenProcess.executableURL = URL(fileURLWithPath: CLI.executable)
            tokenProcess.arguments = ["token", "create", "--role", "device", "--patient", "P1"]
            tokenProcess.environment = sandbox.environment
            let tokenOut = Pipe()
            tokenProcess.standardOutput = tokenOut
            tokenProcess.standardError = FileHandle.nullDevice
            try tokenProcess.run()
            let secret = String(decoding: tokenOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            tokenProcess.waitUntilExit()
            return (tokenProcess.terminationStatus, secret)
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
        kill(serve.processIdentifier, SIGTERM)
        let reply = try await poll.value
        #expect(reply.status == 200, "in-flight request must be answered")
        #expect(ContinuousClock.now - started < .seconds(20), "shutdown must not wait out the long poll")
        try await serve.exited()
        #expect(serve.terminationReason == .exit)
        #expect(serve.terminationStatus == 0)
    }
}
