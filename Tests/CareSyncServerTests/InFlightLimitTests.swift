import CareSyncHTTP
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// `maxRequestsInFlight`: never below `maxConnections`, so parked long polls cannot starve writes and `/metrics`.
@Suite struct InFlightLimitTests {
    @Test func theLimitFollowsTheConnectionLimitByDefault() throws {
        var configuration = try Configuration.load(environment: ["CARESYNC_MAX_CONNECTIONS": "20000"])
        #expect(configuration.maxRequestsInFlight == 0)
        #expect(configuration.httpConfiguration.maxConcurrentRequests == 20_000)
        configuration.maxRequestsInFlight = 30_000
        #expect(configuration.httpConfiguration.maxConcurrentRequests == 30_000)
    }

    @Test(arguments: [("64", "63", false), ("64", "64", true), ("64", "0", true), ("64", "65", true), ("1024", "1023", false)])
    func aLimitBelowTheConnectionLimitIsRefusedAtStart(connections: String, inFlight: String, accepted: Bool) throws {
        let environment = ["CARESYNC_MAX_CONNECTIONS": connections, "CARESYNC_MAX_REQUESTS_IN_FLIGHT": inFlight]
        guard !accepted else {
            #expect(try Configuration.load(environment: environment).maxRequestsInFlight == Int(inFlight))
            return
        }
        let error = #expect(throws: ConfigurationError.self) { try Configuration.load(environment: environment) }
        guard case .conflict(let key, _)? = error else {
            Issue.record("expected conflict, got \(String(describing: error))")
            return
        }
        #expect(key == "maxRequestsInFlight")
        let line = error!.description
        #expect(line.contains("maxRequestsInFlight (\(inFlight)) is below maxConnections (\(connections))"), "\(line)")
        #expect(!line.contains("\n"))
        // The same from a flag: the check runs on the merged configuration, whatever the source.
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: ["CARESYNC_MAX_CONNECTIONS": connections], flags: [.maxRequestsInFlight: inFlight])
        }
    }

    /// Every ordinary connection but one holds a parked long poll, the in-flight limit at its lowest allowed value:
    /// `/metrics` (on the probe reserve) and a write (on the last ordinary connection) are still answered, and the
    /// write wakes every poll. With an in-flight limit below the connection limit (as the fixed 10,000 was for
    /// `maxConnections` above it) both were 503.
    @Test func parkedLongPollsLeaveRoomForAWriteAndMetrics() async throws {
        try await TestServer.with(configure: {
            $0.maxConnections = 10
            $0.reservedProbeConnections = 1
            $0.maxRequestsInFlight = 10
            $0.maxConnectionsPerAddress = 0
            $0.rateLimits.waitsPerToken = 0
        }) { server in
            let token = server.tokens.aliceDevice
            let (_, polls) = try await Self.park(8, on: server)
            let writer = try TestHTTPClient(port: server.port, timeout: TestHTTPClient.answerTimeout)  // the last ordinary connection
            try await Eventually.until { server.app.http.connectionCount == 9 }

            let metrics = try await server.send("GET", "/metrics")  // one of the probe reserve
            #expect(metrics.status == 200, "\(metrics.text)")
            let parked = metrics.text.split(separator: "\n").first { $0.hasPrefix(MetricName.parkedLongPolls + " ") }
            #expect(parked.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) } == 8, "\(String(describing: parked))")

            let body = JSONValue.object(["samples": .array([Fixtures.steps(42)])]).serialized()
            writer.send(Array(("POST /v1/patients/alice/samples HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n").utf8) + body)
            let written = try await writer.response()
            #expect(written.status == 200, "\(written.text)")
            for client in polls {
                let reply = try await client.response()
                #expect(reply.status == 200)
                #expect(reply.json["samples"]?.arrayValue?.map { $0["value"] } == [42])
            }
        }
    }

    /// `maxParkedPolls` from the configuration: with two parked, a third long poll and an event stream are 429 at once,
    /// and a write still wakes the two.
    @Test func theParkedPollLimitIsConfigured() async throws {
        try await TestServer.with(configure: {
            $0.maxParkedPolls = 2
            $0.rateLimits.waitsPerToken = 0
        }) { server in
            let token = server.tokens.aliceDevice
            let (anchor, polls) = try await Self.park(2, on: server)
            let refused = try await server.send("GET", "/v1/patients/alice/changes?anchor=\(anchor)&wait=60", token: token)
            #expect(refused.status == 429 && refused.json["code"]?.stringValue == "tooManyRequests", "\(refused.text)")
            let stream = try await server.send("GET", "/v1/patients/alice/changes", token: token, headers: [("Accept", "text/event-stream")])
            #expect(stream.status == 429, "\(stream.text)")
            let written = try await server.send("POST", "/v1/patients/alice/samples", token: token,
                                                json: .object(["samples": .array([Fixtures.steps(7)])]))
            #expect(written.status == 200)
            for client in polls { #expect(try await client.response().status == 200) }
        }
    }

    /// `count` long polls of alice's device at the head, each on its own connection, parked; answers the head anchor.
    static func park(_ count: Int, on server: TestServer) async throws -> (anchor: String, polls: [TestHTTPClient]) {
        let token = server.tokens.aliceDevice
        let head = try await server.send("GET", "/v1/patients/alice/changes", token: token)
        let anchor = try #require(head.json["anchor"]?.stringValue)
        let poll = "GET /v1/patients/alice/changes?anchor=\(anchor)&wait=60 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n"
        let polls = try (0..<count).map { _ in try TestHTTPClient(port: server.port, timeout: TestHTTPClient.answerTimeout) }
        for client in polls { client.send(poll) }
        try await Eventually.until { server.app.api.notifier.waiterCount == count }
        return (anchor, polls)
    }
}
