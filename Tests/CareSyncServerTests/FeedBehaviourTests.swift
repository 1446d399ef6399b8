import Foundation
import Testing
import CareSyncTestSupport
@testable import CareSyncServer

/// Long polls, gzip both ways and Idempotency-Key, over real sockets.
@Suite(.serialized) struct FeedBehaviourTests {
    @Test func longPollWakesOnACommitForThePatient() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let head = try await server.send("GET", "/v1/patients/alice/changes", token: t.aliceDevice)
            let anchor = try #require(head.json["anchor"]?.stringValue)

            async let polled = server.send("GET", "/v1/patients/alice/changes?anchor=\(anchor)&wait=60", token: t.aliceDevice)
            try await Eventually.until { server.app.api.notifier.waiterCount == 1 }
            // A commit for another patient must not answer alice's poll.
            _ = try await server.send("POST", "/v1/patients/bob/samples", token: t.bobDevice, json: ["samples": [Fixtures.steps(7)]])
            try await Task.sleep(for: .milliseconds(200))
            #expect(server.app.api.notifier.waiterCount == 1)
            let committed = ContinuousClock.now
            _ = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: ["samples": [Fixtures.steps(42)]])
            let reply = try await polled
            let finished = ContinuousClock.now
            #expect(reply.status == 200)
            #expect(reply.json["samples"]?.arrayValue?.map { $0["value"] } == [42])
            // Half the 60 s deadline a missing wake-up waits for: the wake-up itself is measured by bench/, not here. Under
            // ThreadSanitizer on two cores a request can take seconds, and with a 20 s deadline a woken poll once
            // answered 11 s after the commit began.
            #expect(finished - committed < .seconds(30), "the poll should wake on the commit, not at its 60 s deadline")
        }
    }

    /// Seconds the server spent on GET …/changes so far, from its own request-duration histogram.
    static func serverSecondsOnChanges(_ server: TestServer) async throws -> Double {
        let metrics = String(decoding: try await server.send("GET", "/metrics").body, as: UTF8.self)
        let sum = metrics.split(separator: "\n").first {
            $0.hasPrefix("caresync_http_request_duration_seconds_sum") && $0.contains("changes") && $0.contains("GET")
        }.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
        return try #require(sum)
    }

    @Test func longPollWithNothingNewAnswersAnEmptyPageWithTheSameAnchor() async throws {
        try await TestServer.with { server in
            let head = try await server.send("GET", "/v1/patients/alice/changes", token: server.tokens.aliceDevice)
            let anchor = try #require(head.json["anchor"]?.stringValue)
            let before = try await Self.serverSecondsOnChanges(server)
            let started = ContinuousClock.now
            let reply = try await server.send("GET", "/v1/patients/alice/changes?anchor=\(anchor)&wait=2", token: server.tokens.aliceDevice)
            // Held until a little before the 2 s are up (1.4 s). That the server means to answer before a client's
            // 2 s timer fires is its deadline (`longPollDeadlineIsBeforeTheClientsTimer`); how late the answer
            // actually leaves depends on the machine's load, so no wall-clock upper bound here.
            #expect(ContinuousClock.now - started >= .milliseconds(1_350))
            let held = try await Self.serverSecondsOnChanges(server) - before
            #expect(held >= 1.35, "held \(held) s")
            #expect(reply.status == 200)
            #expect(reply.json["samples"]?.arrayValue?.isEmpty == true)
            #expect(reply.json["anchor"]?.stringValue == anchor)
            #expect(server.app.api.notifier.waiterCount == 0)
        }
    }

    /// A `wait=N` poll is planned to answer 0.5 s + 5 % of N (at most 2 s) before N seconds after it arrived.
    @Test(arguments: [1, 2, 30, 60]) func longPollDeadlineIsBeforeTheClientsTimer(wait: Int) throws {
        let received = ContinuousClock.now
        let deadline = try #require(FeedController.longPollDeadline(received: received, wait: wait))
        let early = received.duration(to: received + .seconds(wait)) - received.duration(to: deadline)
        #expect(early == .milliseconds(min(2_000, 500 + 50 * wait)))
        #expect(FeedController.longPollDeadline(received: received, wait: 0) == nil)
    }

    @Test func gzipFeedAndGzipRequestBody() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let batch: JSONValue = ["samples": .array((0..<50).map { Fixtures.steps(Double($0), id: "g\($0)", version: 1) })]
            let compressed = try Shell.run(["gzip", "-c"], input: batch.serialized())
            let posted = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, body: compressed,
                                               headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")])
            #expect(posted.status == 200, "\(posted.text)")
            #expect(posted.json["results"]?.arrayValue?.count == 50)

            let zipped = try await server.send("GET", "/v1/patients/alice/changes", token: t.aliceDevice, headers: [("Accept-Encoding", "gzip")])
            #expect(zipped.status == 200)
            #expect(zipped.header("Content-Encoding") == "gzip")
            let inflated = try Shell.run(["gzip", "-dc"], input: zipped.body)
            #expect(inflated.count > zipped.body.count)
            let page = try JSONValue.parse(inflated)
            #expect(page["samples"]?.arrayValue?.count == 50)
            let plain = try await server.send("GET", "/v1/patients/alice/changes", token: t.aliceDevice)
            #expect(plain.header("Content-Encoding") == nil)
            #expect(plain.json["samples"]?.arrayValue?.count == 50)
        }
    }

    @Test func idempotencyKeyReplaysTheFirstAnswerAndRefusesAnotherBody() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let path = "/v1/patients/alice/samples"
            let body: JSONValue = ["samples": [Fixtures.steps(10)]]  // no sync identifier: a second insert would duplicate it
            let key = ("Idempotency-Key", "retry-1")
            let first = try await server.send("POST", path, token: t.aliceDevice, json: body, headers: [key])
            let again = try await server.send("POST", path, token: t.aliceDevice, json: body, headers: [key])
            #expect(first.status == 200)
            #expect(again.status == 200)
            #expect(again.body == first.body)
            #expect(again.header("Idempotent-Replayed") == "true")
            let feed = try await server.send("GET", "/v1/patients/alice/changes", token: t.aliceDevice)
            #expect(feed.json["samples"]?.arrayValue?.count == 1)

            let other = try await server.send("POST", path, token: t.aliceDevice, json: ["samples": [Fixtures.steps(11)]], headers: [key])
            #expect(other.status == 422)
            other.expectProblem(422, "validationFailed")
            #expect(other.json["errors"]?[0]?["field"] == "Idempotency-Key")
            // Keys are per token: another caller's same key is its own.
            let therapist = try await server.send("POST", path, token: t.therapist, json: body, headers: [key])
            #expect(therapist.status == 200)
            #expect(therapist.header("Idempotent-Replayed") == nil)
        }
    }

    @Test func aRetriedReportDeleteWithItsKeyGetsTheFirstAnswer() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let posted = try await server.send("POST", "/v1/patients/alice/weekly-reports", token: t.therapist,
                                               json: Fixtures.report(version: 1, tests: [("2020-06-16", 380), ("2020-06-18", 400)]))
            #expect(posted.status == 200)
            let path = "/v1/patients/alice/weekly-reports/report-2020-W25"
            let key = ("Idempotency-Key", "delete-1")
            let first = try await server.send("DELETE", path, token: t.therapist, headers: [key])
            let again = try await server.send("DELETE", path, token: t.therapist, headers: [key])
            #expect(first.status == 200 && first.json["outcome"] == "deleted")
            #expect(again.status == 200 && again.body == first.body)
            #expect(again.header("Idempotent-Replayed") == "true")
            let unkeyed = try await server.send("DELETE", path, token: t.therapist)
            unkeyed.expectProblem(404, "notFound")
            let feed = try await server.send("GET", "/v1/patients/alice/changes", token: t.aliceDevice)
            #expect(feed.json["deletedObjects"]?.arrayValue?.count == 2)
        }
    }
}

/// Runs a command with bytes on stdin and returns its stdout.
enum Shell {
    struct Failed: Error { let status: Int32 }
    static func run(_ arguments: [String], input: [UInt8]) throws -> [UInt8] {
        let (ended, output) = try ChildProcess.run("/usr/bin/env", arguments, input: Data(input))
        guard ended.status == 0 else { throw Failed(status: ended.status) }
        return Array(output)
    }
}

/// A bad token is refused from the request head: no `100 Continue`, and the body is never awaited.
@Suite(.serialized) struct EarlyRefusalTests {
    @Test func unauthorizedBeforeTheBodyIsSent() async throws {
        try await TestServer.with { server in
            let head = "POST /v1/patients/alice/samples HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer not-a-token\r\n"
                + "Content-Type: application/json\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n"
            // A premature `100 Continue` would be the first status read; a server that waited for the
            // body would answer 408 at its body deadline instead. So 401 first proves both, with no clock.
            let reply = try await TestHTTPClient.exchange(port: server.port, raw: Array(head.utf8))
            #expect(reply.status == 401)
            reply.expectProblem(401, "unauthorized")
        }
    }
}

/// Concurrent retries with one Idempotency-Key run the write once and all get its answer.
@Suite(.serialized) struct ConcurrentRetryTests {
    @Test func concurrentRetriesWriteOnce() async throws {
        try await TestServer.with { server in
            let body: JSONValue = ["samples": [Fixtures.steps(33)]]
            let replies = try await Concurrently.replies(8) { _ in
                try await server.send("POST", "/v1/patients/alice/samples", token: server.tokens.aliceDevice, json: body,
                                      headers: [("Idempotency-Key", "burst")])
            }
            #expect(replies.allSatisfy { $0.status == 200 })
            #expect(Set(replies.map(\.body)).count == 1)
            #expect(replies.filter { $0.header("Idempotent-Replayed") == nil }.count == 1)
            let feed = try await server.send("GET", "/v1/patients/alice/changes", token: server.tokens.aliceDevice)
            #expect(feed.json["samples"]?.arrayValue?.count == 1)
        }
    }
}

/// A client that goes away while its long poll is parked.
@Suite struct AbandonedLongPollTests {
    @Test func aParkedLongPollWhosePeerClosedFreesItsPlaceAtOnce() async throws {
        try await TestServer.with { server in
            let token = server.tokens.aliceDevice
            let head = try await server.send("GET", "/v1/patients/alice/changes", token: token)
            let anchor = try #require(head.json["anchor"]?.stringValue)
            let request = "GET /v1/patients/alice/changes?anchor=\(anchor)&wait=30 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n\r\n"
            let notifier = server.app.api.notifier
            let client = try TestHTTPClient(port: server.port)
            client.send(request)
            try await Eventually.until { notifier.waiterCount == 1 }
            client.close()
            // Gone within moments, not at its 30 s deadline.
            try await Eventually.until(deadline: .seconds(3)) { notifier.waiterCount == 0 }
        }
    }
}
