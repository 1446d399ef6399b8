import CareSyncCore
import CareSyncPostgres
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// The API's feed, idempotency and long-poll guarantees with two instances on one PostgreSQL database, over real
/// sockets (`TwoInstances`): what a load balancer sending each request to either instance must not break. Runs
/// when `CARESYNC_TEST_POSTGRES_URL` names a server (scripts/ci-postgres.sh), skipped otherwise.
@Suite(.enabled(if: postgresTestServerURL != nil, "CARESYNC_TEST_POSTGRES_URL names no server"))
struct TwoInstanceAPITests {
    static let samples = "/v1/patients/alice/samples", changes = "/v1/patients/alice/changes"

    @Test func aReaderPagingThroughBothInstancesGetsEveryChangeOnce() async throws {
        try await TwoInstances.with { servers in
            let t = servers.tokens
            var reader = FeedReader()
            for round in 0..<6 {
                let writer = 1 + round % 2, other = 2 - round % 2
                let batch: [JSONValue] = (0..<3).map { Fixtures.steps(Double(round * 10 + $0), id: "r\(round)-\($0)", version: 1, hour: $0) }
                #expect(try await servers.send(writer, "POST", Self.samples, token: t.aliceDevice, json: ["samples": .array(batch)]).status == 200)
                if round > 0 {  // tombstones through the other instance: the last round's first sample replaced, its second deleted
                    let replaced = try await servers.send(other, "POST", Self.samples, token: t.aliceDevice,
                                                          json: ["samples": [Fixtures.steps(99, id: "r\(round - 1)-0", version: 2)]])
                    let deleted = try await servers.send(other, "POST", Self.samples + "/delete", token: t.aliceDevice,
                                                         json: ["syncIdentifiers": [.string("r\(round - 1)-1")]])
                    #expect(replaced.status == 200 && deleted.json["results"]?[0]?["outcome"] == "deleted", "\(deleted.text)")
                }
                try await reader.readToHead(servers, token: t.aliceDevice)
            }
            // 18 first versions and 5 second ones, each once; 10 tombstones, each once and of a sample read before.
            #expect(reader.samples.count == 23 && Set(reader.samples).count == 23, "\(reader.samples)")
            #expect(reader.deleted.count == 10 && Set(reader.deleted).count == 10, "\(reader.deleted)")
            #expect(Set(reader.deleted).isSubset(of: Set(reader.samples)))
            // The reader's replica is what a fresh read finds, and its last anchor (from one) is the head on both.
            let fresh = try await servers.send(1, "GET", Self.changes + "?limit=5000", token: t.aliceDevice)
            #expect(Set(fresh.json["samples"]?.arrayValue?.compactMap { $0["uuid"]?.stringValue } ?? [])
                    == Set(reader.samples).subtracting(reader.deleted))
            let last = try #require(reader.anchor)
            for instance in [1, 2] {
                let head = try await servers.send(instance, "GET", Self.changes + "?anchor=\(last)", token: t.aliceDevice)
                #expect(head.status == 200 && head.json["samples"]?.arrayValue?.isEmpty == true
                        && head.json["deletedObjects"]?.arrayValue?.isEmpty == true, "\(head.text)")
            }
        }
    }

    @Test func oneKeyPostedToBothInstancesStoresOnceAndReplaysTheFirstAnswer() async throws {
        try await TwoInstances.with { servers in
            let t = servers.tokens
            let body: JSONValue = ["samples": [Fixtures.steps(10)]]  // no sync identifier: a second insert would duplicate it
            let key = ("Idempotency-Key", "retry-1")
            let first = try await servers.send(1, "POST", Self.samples, token: t.aliceDevice, json: body, headers: [key])
            let again = try await servers.send(2, "POST", Self.samples, token: t.aliceDevice, json: body, headers: [key])
            #expect(first.status == 200 && again.status == 200)
            #expect(again.body == first.body)
            #expect(first.header("Idempotent-Replayed") == nil && again.header("Idempotent-Replayed") == "true")
            for instance in [1, 2] {  // the same key with another body: refused on either
                let other = try await servers.send(instance, "POST", Self.samples, token: t.aliceDevice,
                                                   json: ["samples": [Fixtures.steps(11)]], headers: [key])
                other.expectProblem(422, "validationFailed")
                #expect(other.json["errors"]?[0]?["field"] == "Idempotency-Key")
                let feed = try await servers.send(instance, "GET", Self.changes, token: t.aliceDevice)
                #expect(feed.json["samples"]?.arrayValue?.map { $0["value"] } == [10])
            }
        }
    }

    @Test func concurrentRetriesThroughBothInstancesWriteOnce() async throws {
        try await TwoInstances.with { servers in
            let body: JSONValue = ["samples": [Fixtures.steps(33)]]
            let replies = try await Concurrently.replies(8) { attempt in  // half through each instance
                try await servers.send(1 + attempt % 2, "POST", Self.samples, token: servers.tokens.aliceDevice, json: body,
                                       headers: [("Idempotency-Key", "burst")])
            }
            #expect(replies.allSatisfy { $0.status == 200 }, "\(replies.map(\.text))")
            #expect(Set(replies.map(\.body)).count == 1)
            #expect(replies.filter { $0.header("Idempotent-Replayed") == nil }.count == 1)
            let feed = try await servers.send(2, "GET", Self.changes, token: servers.tokens.aliceDevice)
            #expect(feed.json["samples"]?.arrayValue?.count == 1)
        }
    }

    @Test func aLongPollParkedOnOneInstanceWakesOnACommitThroughTheOther() async throws {
        try await TwoInstances.with { servers in
            let t = servers.tokens
            let head = try await servers.send(2, "GET", Self.changes, token: t.aliceDevice)
            let anchor = try #require(head.json["anchor"]?.stringValue)
            async let polled = servers.send(2, "GET", Self.changes + "?anchor=\(anchor)&wait=20", token: t.aliceDevice)
            try await Eventually.until { servers.two.api.notifier.waiterCount == 1 }
            let committed = ContinuousClock.now
            #expect(try await servers.send(1, "POST", Self.samples, token: t.aliceDevice, json: ["samples": [Fixtures.steps(42)]]).status == 200)
            let reply = try await polled
            let waited = ContinuousClock.now - committed
            #expect(reply.status == 200 && reply.json["samples"]?.arrayValue?.map { $0["value"] } == [42], "\(reply.text)")
            #expect(waited < .seconds(10), "answered \(waited) after the commit: it should wake on the NOTIFY, not at its 20 s deadline")
        }
    }

    @Test func anEventStreamOnOneInstanceCarriesACommitThroughTheOther() async throws {
        try await TwoInstances.with { servers in
            let t = servers.tokens
            let head = try await servers.send(2, "GET", Self.changes, token: t.aliceDevice)
            let anchor = try #require(head.json["anchor"]?.stringValue)
            let stream = try await EventStreamClient.open(port: servers.port(2), path: Self.changes + "?anchor=\(anchor)", token: t.aliceDevice)
            defer { stream.close() }
            #expect(stream.status == 200)
            try await Eventually.until { servers.two.api.notifier.waiterCount == 1 }
            let committed = ContinuousClock.now
            #expect(try await servers.send(1, "POST", Self.samples, token: t.aliceDevice, json: ["samples": [Fixtures.steps(43)]]).status == 200)
            let events = try await stream.read { event in event.json["samples"]?.arrayValue?.contains { $0["value"] == 43 } == true }
            let waited = ContinuousClock.now - committed
            #expect(events.last?.json["samples"]?.arrayValue?.map { $0["value"] } == [43])
            #expect(waited < .seconds(10), "streamed \(waited) after the commit: it should wake on the NOTIFY")
        }
    }

    @Test func aTokenRevokedThroughOneInstanceIsCutOffOnTheOtherWithoutACommit() async throws {
        try await TwoInstances.with { servers in
            let made = try servers.one.app.api.admin.createToken(
                TokenSpec(role: .therapist, careTeams: ["physio"], source: "org.example.cutoff"), now: Date())
            let head = try await servers.send(2, "GET", Self.changes, token: made.secret)
            let anchor = try #require(head.json["anchor"]?.stringValue)
            let stream = try await EventStreamClient.open(port: servers.port(2), path: Self.changes + "?anchor=\(anchor)",
                                                          token: made.secret)
            defer { stream.close() }
            #expect(stream.status == 200)
            #expect(try await stream.next()?.name == "anchor")
            let poll = Task { try await servers.send(2, "GET", Self.changes + "?anchor=\(anchor)&wait=20", token: made.secret) }
            try await Eventually.until { servers.two.api.notifier.waiterCount == 2 }
            let revoked = ContinuousClock.now
            #expect(try await servers.send(1, "DELETE", "/v1/tokens/\(made.record.id)", token: servers.tokens.admin).status == 200)
            // Nothing commits: instance 2 hears of the revocation through NOTIFY and ends both at once.
            let answer = try await poll.value
            answer.expectProblem(401, "unauthorized")
            let rest = try await stream.read { _ in false }
            #expect(rest.allSatisfy { $0.name != "changes" }, "sent \(rest.map { $0.name ?? "comment" })")
            #expect(stream.endedCleanly)
            #expect(ContinuousClock.now - revoked < .seconds(10), "cut off \(ContinuousClock.now - revoked) after the revocation")
            #expect(try await servers.send(2, "GET", Self.changes, token: made.secret).status == 401)
        }
    }

    @Test func anErasureOfAPatientWithNoTokenMovesTheOtherInstancesInterruptEpoch() async throws {
        try await TwoInstances.with { servers in
            // Pages read ahead on instance 2 are dropped once its interrupt epoch moves (`PagesAhead`); a patient
            // with no token has no revocation to move it, so the erasure sends one interrupt of its own.
            let created = try await servers.send(1, "POST", "/v1/patients", token: servers.tokens.admin, json: ["id": "dora"])
            #expect(created.status == 201)
            let before = servers.two.api.notifier.interruptEpoch
            let erased = try await servers.send(1, "DELETE", "/v1/patients/dora", token: servers.tokens.admin,
                                                headers: [("Confirm-Erase", "dora")])
            #expect(erased.status == 200)
            try await Eventually.until { servers.two.api.notifier.interruptEpoch > before }
        }
    }

    /// A therapist proved their reach to alice on instance 2 (kept there, so later requests skip the store), then an
    /// admin erased alice through instance 1: instance 2 forgets that reach when the erasure's notification arrives,
    /// so the therapist's write there is 404 and stores nothing for the erased id.
    @Test func anErasureThroughOneInstanceEndsTheReachTheOtherProved() async throws {
        try await TwoInstances.with { servers in
            let t = servers.tokens
            let principal = try await Self.therapistProvesReachToAliceOnInstanceTwo(servers)
            let before = servers.two.api.notifier.interruptEpoch
            let erased = try await servers.send(1, "DELETE", "/v1/patients/alice", token: t.admin, headers: [("Confirm-Erase", "alice")])
            #expect(erased.status == 200, "\(erased.text)")
            try await Eventually.until { servers.two.api.notifier.interruptEpoch > before }
            let write = try await servers.send(2, "POST", Self.samples, token: t.therapist,
                                               json: ["samples": [Fixtures.steps(5, id: "after-erasure", version: 1)]])
            write.expectProblem(404, "notFound")
            #expect(try servers.one.app.api.store.changes(ChangeQuery(patient: "alice", anchor: nil, limit: 10)).samples.isEmpty)
        }
    }

    /// A therapist proved their reach to alice on instance 2 and parks a long poll there; an admin takes alice off the
    /// therapist's team through instance 1: instance 2 hears it on the store's channel, forgets the reach and ends the
    /// poll (404) without a commit; the therapist's next request there is 404, the device's is answered.
    @Test func aPatientTakenOffATeamThroughOneInstanceLeavesItOnTheOther() async throws {
        try await TwoInstances.with { servers in
            let t = servers.tokens
            let principal = try await Self.therapistProvesReachToAliceOnInstanceTwo(servers)
            let head = try await servers.send(2, "GET", Self.changes, token: t.therapist)
            let anchor = try #require(head.json["anchor"]?.stringValue)
            let poll = Task { try await servers.send(2, "GET", Self.changes + "?anchor=\(anchor)&wait=20", token: t.therapist) }
            try await Eventually.until { servers.two.api.notifier.waiterCount == 1 }
            let removed = ContinuousClock.now
            let reply = try await servers.send(1, "DELETE", "/v1/care-teams/physio/patients/alice", token: t.admin)
            #expect(reply.status == 200, "\(reply.text)")
            let answer = try await poll.value
            answer.expectProblem(404, "notFound")
            #expect(ContinuousClock.now - removed < .seconds(10), "ended \(ContinuousClock.now - removed) after the removal")
            #expect(!servers.two.api.gate.authenticator.isKnownInReach(principal, patient: "alice"))
            try await servers.send(2, "GET", Self.changes, token: t.therapist).expectProblem(404, "notFound")
            #expect(try await servers.send(2, "GET", Self.changes, token: t.aliceDevice).status == 200)
            #expect(try servers.two.api.access.careTeamLeaves() == 1)
        }
    }

    /// An erasure announced while an instance's listener was away (a restart of PostgreSQL, a failover) never reaches
    /// it: so a listener that connects again makes its instance forget every reach it proved, proven again from the
    /// store on the next request.
    @Test func aListenerThatWasAwayForgetsEveryProvenReach() async throws {
        try await TwoInstances.with { servers in
            let t = servers.tokens
            let principal = try await Self.therapistProvesReachToAliceOnInstanceTwo(servers)
            let db = try PostgresConnection(url: try #require(servers.one.app.configuration.databaseURL))
            let storeID = try #require(try db.query("SELECT value FROM store_meta WHERE key = 'store_id'").first { try $0.string(0) })
            try db.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE $1", [.text("LISTEN %caresync_\(storeID)%")])
            try await Eventually.until { !servers.two.api.gate.authenticator.isKnownInReach(principal, patient: "alice") }
            #expect(try await servers.send(2, "GET", Self.changes, token: t.therapist).status == 200)
            #expect(servers.two.api.gate.authenticator.isKnownInReach(principal, patient: "alice"))
        }
    }

    /// The physio therapist reads alice's feed through instance 2, which then keeps the reach it proved; answers the
    /// therapist as instance 2 reads them.
    static func therapistProvesReachToAliceOnInstanceTwo(_ servers: TwoInstances) async throws -> Principal {
        #expect(try await servers.send(2, "GET", changes, token: servers.tokens.therapist).status == 200)
        let id = try #require(TokenSecret.id(of: servers.tokens.therapist))
        let principal = Principal(token: try #require(try servers.two.api.access.token(id: id)))
        #expect(servers.two.api.gate.authenticator.isKnownInReach(principal, patient: "alice"))
        return principal
    }
}
