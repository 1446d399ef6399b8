import CareSyncCore
import Foundation
import Testing
import CareSyncTestSupport
@testable import CareSyncServer

/// A revoked or expired token stops receiving at once: its event streams end and its parked long polls answer
/// 401, woken by the revocation or the expiry itself, and the audit log shows every event a stream delivered. Over real sockets.
@Suite(.serialized) struct TokenCutOffTests {
    static let changes = "/v1/patients/alice/changes"
    /// How long a parked poll waits, and how long the test client waits for any read: far beyond what a starved
    /// test process on a loaded 2-core machine takes to answer (the whole parallel suite shares two cores), so the
    /// bounds below tell a missing wake-up (a wait this long) from a slow one.
    static let pollSeconds = 60

    /// A therapist token of physio (alice), valid for `seconds` when given.
    static func therapist(_ server: TestServer, expiresIn seconds: Double? = nil) throws -> (id: String, secret: String) {
        let spec = TokenSpec(role: .therapist, careTeams: ["physio"], source: "org.example.cutoff",
                             expiresInDays: seconds.map { $0 / 86_400 })
        let made = try server.app.api.admin.createToken(spec, now: Date())
        return (made.record.id, made.secret)
    }

    /// Posts one heart-rate-free step sample for alice with her device.
    static func write(_ server: TestServer, _ value: Double) async throws {
        let reply = try await server.send("POST", "/v1/patients/alice/samples", token: server.tokens.aliceDevice,
                                          json: ["samples": [Fixtures.steps(value)]])
        #expect(reply.status == 200, "\(reply.text)")
    }

    /// The token's audit records, oldest first, as (action, count, status).
    static func audit(_ server: TestServer, token: String) async throws -> [(String, Int, Int)] {
        let reply = try await server.send("GET", "/v1/audit?token=\(token)&limit=100", token: server.tokens.admin)
        #expect(reply.status == 200)
        return (reply.json["records"]?.arrayValue ?? []).reversed().map {
            ($0["action"]?.stringValue ?? "", Int($0["count"]?.numberValue ?? -1), Int($0["status"]?.numberValue ?? -1))
        }
    }

    /// Opens a stream of `secret` that has read its opening event and one `changes` event with one sample, and a
    /// long poll parked after the head; returns once both wait on the notifier.
    static func streamAndPoll(_ server: TestServer, id: String, secret: String)
        async throws -> (stream: EventStreamClient, poll: Task<TestReply, any Error>) {
        let stream = try await EventStreamClient.open(port: server.port, path: changes, token: secret)
        #expect(stream.status == 200)
        #expect(try await stream.next()?.name == "anchor")
        try await write(server, 1)
        let delivered = try #require(try await stream.next())
        #expect(delivered.name == "changes" && delivered.itemCount == 1)
        let head = try await server.send("GET", changes, token: secret)
        let anchor = try #require(head.json["anchor"]?.stringValue)
        let poll = Task { try await server.send("GET", changes + "?anchor=\(anchor)&wait=\(pollSeconds)", token: secret) }
        let api = server.app.api
        try await Eventually.until(deadline: .seconds(60)) { api.tokenWaits.held(by: id) == 2 && api.notifier.waiterCount == 2 }
        return (stream, poll)
    }

    /// What the stream sends after the cut-off: nothing but its end. Bounded by the client's read timeout.
    static func expectEnded(_ stream: EventStreamClient, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let rest = try await stream.read { _ in false }
        #expect(rest.allSatisfy { $0.name != "changes" }, "sent \(rest.map { $0.name ?? "comment" })", sourceLocation: sourceLocation)
        #expect(stream.endedCleanly, sourceLocation: sourceLocation)
    }

    @Test func revokingATokenEndsItsStreamAndParkedPollAtOnce() async throws {
        try await TestServer.with(configure: { $0.stream.keepAlive = .seconds(300) }) { server in
            let (id, secret) = try Self.therapist(server)
            let (stream, poll) = try await Self.streamAndPoll(server, id: id, secret: secret)
            let revoked = ContinuousClock.now
            let reply = try await server.send("DELETE", "/v1/tokens/\(id)", token: server.tokens.admin)
            #expect(reply.json["revoked"] == true)
            // Nothing commits: the revocation itself ends both, long before the poll's wait and the keep-alive.
            let answer = try await poll.value
            answer.expectProblem(401, "unauthorized")
            try await Self.expectEnded(stream)
            // Half the poll's wait a missing wake-up would take (the stream's keep-alive is longer still): a test
            // bounds the cause, not the speed, so a loaded 2-core CI machine cannot fail it.
            #expect(ContinuousClock.now - revoked < .seconds(Self.pollSeconds / 2), "cut off after \(ContinuousClock.now - revoked)")
            stream.close()
            #expect(server.app.api.tokenWaits.held(by: id) == 0)
            let records = try await Self.audit(server, token: id)
            let streamed = records.filter { $0.0.hasPrefix("changes.stream") }
            #expect(streamed.map(\.0) == ["changes.stream", "changes.stream.event", "changes.stream.end"], "\(records)")
            #expect(streamed.map(\.1) == [0, 1, 0])
            #expect(streamed.map(\.2) == [200, 200, 401])
            #expect(records.filter { $0.0 == "changes.read" }.map(\.2) == [200, 401], "\(records)")
        }
    }

    @Test func aRevocationMadeElsewhereStopsTheStreamAndPollAtTheNextChange() async throws {
        try await TestServer.with(configure: { $0.stream.keepAlive = .seconds(300) }) { server in
            let (id, secret) = try Self.therapist(server)
            let (stream, poll) = try await Self.streamAndPoll(server, id: id, secret: secret)
            // Revoked in the store only, as another instance on the same PostgreSQL database or `caresync token
            // revoke` does: nothing wakes this instance's waits, but the device's next write does.
            try server.app.api.admin.revokeToken(id: id, now: Date())
            let written = ContinuousClock.now
            try await Self.write(server, 2)
            let answer = try await poll.value
            answer.expectProblem(401, "unauthorized")
            try await Self.expectEnded(stream)
            #expect(ContinuousClock.now - written < .seconds(Self.pollSeconds / 2), "cut off after \(ContinuousClock.now - written)")
            stream.close()
            let records = try await Self.audit(server, token: id)
            #expect(records.filter { $0.0 == "changes.stream.event" }.map(\.1) == [1], "\(records)")
            #expect(records.filter { $0.0 == "changes.stream.end" }.map(\.2) == [401], "\(records)")
        }
    }

    /// Polls of two tokens woken by one commit share each token's re-check, never across tokens: every poll of the token
    /// revoked elsewhere answers 401, every poll of the other the new sample.
    @Test func oneCommitWakingManyPollsChecksEachTokenForItsOwnPolls() async throws {
        try await TestServer.with { server in
            let (revoked, revokedSecret) = try Self.therapist(server)
            let (kept, keptSecret) = try Self.therapist(server)
            let head = try await server.send("GET", Self.changes + "?anchor=now", token: keptSecret)
            let anchor = try #require(head.json["anchor"]?.stringValue)
            let polls = (0..<12).map { n in
                Task { try await server.send("GET", Self.changes + "?anchor=\(anchor)&wait=\(Self.pollSeconds)", token: n % 3 == 0 ? keptSecret : revokedSecret) }
            }
            let api = server.app.api
            try await Eventually.until(deadline: .seconds(60)) {
                api.tokenWaits.held(by: revoked) == 8 && api.tokenWaits.held(by: kept) == 4 && api.notifier.waiterCount == 12
            }
            try api.admin.revokeToken(id: revoked, now: Date())   // in the store only, as another instance does
            try await Self.write(server, 3)
            for (n, poll) in polls.enumerated() {
                let answer = try await poll.value
                if n % 3 == 0 {
                    #expect(answer.status == 200 && answer.json["samples"]?.arrayValue?.count == 1, "poll \(n): \(answer.text)")
                } else {
                    answer.expectProblem(401, "unauthorized")
                }
            }
        }
    }

    @Test func anExpiringTokenLosesItsStreamAndParkedPollAtItsExpiry() async throws {
        try await TestServer.with(configure: { $0.stream.keepAlive = .seconds(300) }) { server in
            // The stream and the poll must be parked before the expiry; a starved parallel run may take long to get
            // there, so a later attempt gives the next token longer.
            for expiresIn in [20.0, 45.0] {
                let (id, secret) = try Self.therapist(server, expiresIn: expiresIn)
                let expiry = try #require(try server.app.api.access.token(id: id)?.expiresAt)
                let (stream, poll) = try await Self.streamAndPoll(server, id: id, secret: secret)
                let parked = Date()
                guard parked < expiry.addingTimeInterval(-1) else { stream.close(); _ = try? await poll.value; continue }
                let answer = try await poll.value
                answer.expectProblem(401, "unauthorized")
                try await Self.expectEnded(stream)
                let late = Date().timeIntervalSince(expiry)
                // Never before the expiry; within half the time a missing expiry wake-up would leave the poll waiting.
                let missed = parked.addingTimeInterval(Double(Self.pollSeconds)).timeIntervalSince(expiry)
                #expect(late >= -0.05 && late < missed / 2, "cut off \(late) s after the expiry (a missed wake-up: \(missed) s)")
                stream.close()
                try await Self.write(server, 2)
                let records = try await Self.audit(server, token: id)
                #expect(records.filter { $0.0.hasPrefix("changes.stream") }.map(\.0)
                        == ["changes.stream", "changes.stream.event", "changes.stream.end"], "\(records)")
                #expect(records.filter { $0.0 == "changes.read" }.map(\.2) == [200, 401], "\(records)")
                return
            }
            Issue.record("the stream and the poll were never parked before their token expired")
        }
    }

    @Test func aStreamAuditsEveryEventItDelivers() async throws {
        try await TestServer.with { server in
            let (id, secret) = try Self.therapist(server)
            let stream = try await EventStreamClient.open(port: server.port, path: Self.changes, token: secret)
            #expect(try await stream.next()?.name == "anchor")
            var delivered: [Int] = []
            for value in 1...3 {
                let samples = (0..<value).map { Fixtures.steps(Double($0 + 1), hour: 10 + $0) }
                _ = try await server.send("POST", "/v1/patients/alice/samples", token: server.tokens.aliceDevice,
                                          json: ["samples": .array(samples)])
                let event = try #require(try await stream.next())
                delivered.append(event.itemCount)
            }
            stream.close()
            #expect(delivered == [1, 2, 3])
            let events = try await Self.audit(server, token: id).filter { $0.0 == "changes.stream.event" }
            #expect(events.map(\.1) == delivered)
            #expect(events.allSatisfy { $0.2 == 200 })
        }
    }
}
