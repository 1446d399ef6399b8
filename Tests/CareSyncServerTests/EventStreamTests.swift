import CareSyncCore
import Foundation
import Testing
import CareSyncTestSupport
@testable import CareSyncServer

/// The change feed as server-sent events (`Accept: text/event-stream`), over real sockets.
@Suite(.serialized) struct EventStreamTests {
    static let changes = "/v1/patients/alice/changes"

    /// Applies a feed page to a replica (uuid → sample): samples in, deleted objects out.
    static func apply(_ page: JSONValue, to replica: inout [String: JSONValue]) {
        for s in page["samples"]?.arrayValue ?? [] { replica[s["uuid"]?.stringValue ?? ""] = s }
        for d in page["deletedObjects"]?.arrayValue ?? [] { replica[d["uuid"]?.stringValue ?? ""] = nil }
    }

    /// Posts `count` step samples with fresh sync identifiers `prefix0…`.
    static func post(_ server: TestServer, _ prefix: String, count: Int, token: String) async throws {
        let samples = (0..<count).map { Fixtures.steps(Double($0 + 1), id: "\(prefix)\($0)", version: 1) }
        let reply = try await server.send("POST", "/v1/patients/alice/samples", token: token, json: ["samples": .array(samples)])
        #expect(reply.status == 200, "\(reply.text)")
    }

    @Test func resumeByLastEventIDAfterADisconnectYieldsEveryChangeOnce() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            for batch in 0..<5 { try await Self.post(server, "before\(batch)-", count: 2, token: t.aliceDevice) }
            let first = try await EventStreamClient.open(port: server.port, path: Self.changes + "?limit=3", token: t.aliceDevice)
            #expect(first.status == 200)
            #expect(first.header("Content-Type") == "text/event-stream")
            #expect(first.header("Transfer-Encoding") == "chunked")
            var seen: [String] = []
            var lastID: String?
            // Two pages of three, then the client goes away in the middle of the backlog.
            for _ in 0..<2 {
                let event = try #require(try await first.next())
                #expect(event.name == "changes")
                seen += event.json["samples"]?.arrayValue?.compactMap { $0["uuid"]?.stringValue } ?? []
                lastID = event.id
            }
            first.close()
            // Writers go on while nobody listens, and while the second stream reads.
            for batch in 0..<5 { try await Self.post(server, "gap\(batch)-", count: 2, token: t.aliceDevice) }
            let resumed = try await EventStreamClient.open(
                port: server.port, path: Self.changes + "?limit=3", token: t.aliceDevice, headers: [("Last-Event-ID", try #require(lastID))])
            #expect(resumed.status == 200)
            func writeDuring() async throws {
                for batch in 0..<5 { try await Self.post(server, "during\(batch)-", count: 2, token: t.aliceDevice) }
            }
            async let during: Void = writeDuring()
            _ = try await resumed.read { event in
                seen += event.json["samples"]?.arrayValue?.compactMap { $0["uuid"]?.stringValue } ?? []
                return seen.count >= 30
            }
            try await during
            resumed.close()
            #expect(seen.count == 30)
            #expect(Set(seen).count == seen.count, "a change came twice")
            let all = try await server.send("GET", Self.changes + "?limit=100", token: t.aliceDevice)
            #expect(Set(all.json["samples"]?.arrayValue?.compactMap { $0["uuid"]?.stringValue } ?? []) == Set(seen))
            // One audit record per stream opened, with the first event's items.
            let audit = try await server.send("GET", "/v1/audit?patient=alice", token: t.admin)
            let opened = audit.json["records"]?.arrayValue?.filter { $0["action"] == "changes.stream" } ?? []
            #expect(opened.count == 2)
            #expect(opened.allSatisfy { $0["status"] == 200 && $0["count"] == 3 })
        }
    }

    @Test func aStreamingAndAPagingReaderUnderConcurrentWritersEndWithTheSameReplica() async throws {
        try await TestServer.with(configure: { $0.stream.keepAlive = .milliseconds(300) }) { server in
            let t = server.tokens
            let stream = try await EventStreamClient.open(port: server.port, path: Self.changes + "?limit=4", token: t.aliceDevice)
            #expect(stream.status == 200)
            // Anchors are sealed (a fresh string each time): the stream and the pager are compared by position.
            let anchors = server.app.api.anchors
            let target = Shared<Anchor?>(nil)
            let streamed = Task { () throws -> [String: JSONValue] in
                var replica: [String: JSONValue] = [:]
                var last: Anchor?
                while let event = try await stream.next() {
                    if event.data != nil { Self.apply(event.json, to: &replica) }
                    if let id = event.id { last = try anchors.decode(id) }
                    if let goal = target.current, last == goal { return replica }
                }
                throw TestHTTPClient.Failure.malformed("stream ended before the final anchor")
            }
            // Two writers: inserts, replacements (a higher version: new uuid, old one deleted) and deletions.
            func writer(_ token: String, _ prefix: String) async throws {
                for round in 0..<12 {
                    try await Self.post(server, "\(prefix)\(round)-", count: 3, token: token)
                    if round >= 2 {
                        let replaced = Fixtures.steps(99, id: "\(prefix)\(round - 1)-0", version: 2)
                        _ = try await server.send("POST", "/v1/patients/alice/samples", token: token, json: ["samples": [replaced]])
                        _ = try await server.send("POST", "/v1/patients/alice/samples/delete", token: token,
                                                  json: ["syncIdentifiers": [.string("\(prefix)\(round - 2)-1")]])
                    }
                }
            }
            let writersDone = Shared(false)
            // The paging reader: pages of five until it reaches the end after the writers finished.
            let pager = Task { () throws -> ([String: JSONValue], String) in
                var paged: [String: JSONValue] = [:]
                var anchor = ""
                while true {
                    let last = writersDone.current
                    let page = try await server.send("GET", Self.changes + "?limit=5&anchor=\(anchor)", token: t.aliceDevice)
                    #expect(page.status == 200)
                    Self.apply(page.json, to: &paged)
                    anchor = try #require(page.json["anchor"]?.stringValue)
                    if page.json["hasMore"] == false {
                        if last { return (paged, anchor) }
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
            }
            async let a: Void = writer(t.aliceDevice, "a")
            async let b: Void = writer(t.therapist, "b")
            try await a
            try await b
            writersDone.set(true)
            let (paged, anchor) = try await pager.value
            target.set(try anchors.decode(anchor))
            let viaStream = try await streamed.value
            stream.close()
            var fresh: [String: JSONValue] = [:]
            var from = ""
            while true {
                let page = try await server.send("GET", Self.changes + "?limit=5000&anchor=\(from)", token: t.aliceDevice)
                Self.apply(page.json, to: &fresh)
                from = try #require(page.json["anchor"]?.stringValue)
                if page.json["hasMore"] == false { break }
            }
            #expect(try anchors.decode(from) == (try anchors.decode(anchor)))
            #expect(fresh.count == 2 * (12 * 3 - 10))
            #expect(viaStream == paged)
            #expect(paged == fresh)
        }
    }

    @Test func aStreamThatOutlivesItsLifetimeEndsCleanly() async throws {
        try await TestServer.with(configure: {
            // Room for a loaded machine: several keep-alive intervals fit in the lifetime however late the first read comes.
            $0.stream.lifetime = .seconds(2)
            $0.stream.keepAlive = .milliseconds(200)
        }) { server in
            let started = ContinuousClock.now
            let stream = try await EventStreamClient.open(port: server.port, path: Self.changes, token: server.tokens.aliceDevice)
            let events = try await stream.read { _ in ContinuousClock.now - started > .seconds(10) }  // bounded: fail, not hang
            let lasted = ContinuousClock.now - started
            #expect(stream.endedCleanly, "the stream should end with the last chunk, not a cut connection")
            #expect(lasted >= .milliseconds(1_900) && lasted < .seconds(8), "lasted \(lasted)")
            #expect(events.first?.name == "anchor")
            // Every keep-alive is an anchor event (never a comment, whose choice would tell about hidden changes).
            #expect(events.filter { $0.name == "anchor" }.count >= 3 && !events.contains { $0.comment != nil })
            stream.close()
            try await Eventually.until { server.app.api.streams.open == 0 && server.app.api.notifier.waiterCount == 0 }
        }
    }

    @Test func aReaderOfOnlyHeartRateGetsAdvancedAnchorsAndNoItemsAndOutlivesAPurge() async throws {
        try await TestServer.with(configure: { $0.stream.keepAlive = .seconds(2) }) { server in
            let api = server.app.api
            let heartRate = try api.admin.createToken(
                TokenSpec(role: .therapist, careTeams: ["physio"], source: "org.example.cardiogram", readTypes: ["heartRate"]), now: Date()).secret
            let stream = try await EventStreamClient.open(port: server.port, path: Self.changes, token: heartRate)
            let opening = try #require(try await stream.next())
            let opened = ContinuousClock.now
            #expect(opening.name == "anchor" && opening.itemCount == 0)
            let firstAnchor = try #require(opening.id)

            // Steps only, long ago, then deleted long ago: tombstones the retention job will purge.
            let t0 = Date(timeIntervalSince1970: 1_592_474_400)
            let steps = (0..<4).map { SampleInput(type: .stepCount, value: Double($0), start: t0, end: t0.addingTimeInterval(60),
                                                  syncIdentifier: "old\($0)", syncVersion: 1, metadata: [:]) }
            _ = try api.store.upsert(steps, patient: "alice", source: "org.example.phone.alice", now: t0)
            let deleted = try api.store.delete(uuids: [], syncIdentifiers: ["old0", "old1"], patient: "alice",
                                               source: "org.example.phone.alice", now: t0.addingTimeInterval(86_400))
            let anchors = server.app.api.anchors
            func position(_ id: String?) -> Anchor? { id.flatMap { try? anchors.decode($0) } }
            let events = try await stream.read { position($0.id) == deleted.anchor || ContinuousClock.now - opened > .seconds(10) }
            let caughtUp = ContinuousClock.now
            #expect(position(events.last?.id) == deleted.anchor, "the stream never handed out the advanced anchor")
            let head = try #require(events.last?.id)
            #expect(events.allSatisfy { $0.name != "changes" && $0.itemCount == 0 })
            #expect(events.filter { $0.data != nil }.allSatisfy { $0.name == "anchor" && $0.json["hasMore"] == false })
            // Not early on the hidden commit: only when the keep-alive interval was up.
            #expect(caughtUp - opened >= .milliseconds(1_500), "the anchor came \(caughtUp - opened) after opening")
            stream.close()

            try RetentionJob(store: api.store, retentionDays: server.app.configuration.tombstoneRetentionDays, metrics: api.metrics,
                             clock: api.clock).runOnce()
            let stale = try await server.send("GET", Self.changes + "?anchor=\(firstAnchor)", token: heartRate)
            stale.expectProblem(410, "anchorExpired")
            let kept = try await server.send("GET", Self.changes + "?anchor=\(head)", token: heartRate)
            #expect(kept.status == 200)
            let resumed = try await EventStreamClient.open(port: server.port, path: Self.changes, token: heartRate,
                                                           headers: [("Last-Event-ID", head)])
            #expect(resumed.status == 200)
            resumed.close()
        }
    }

    @Test func theDisconnectOfAClientFreesTheStream() async throws {
        try await TestServer.with { server in
            let api = server.app.api
            let stream = try await EventStreamClient.open(port: server.port, path: Self.changes, token: server.tokens.aliceDevice)
            _ = try #require(try await stream.next())
            try await Eventually.until { api.streams.open == 1 && api.notifier.waiterCount == 1 }
            #expect(api.parkedCount == 1)
            stream.close()
            // Freed at once, not at the next keep-alive (15 s) or the end of its lifetime.
            try await Eventually.until(deadline: .seconds(3)) { api.streams.open == 0 && api.notifier.waiterCount == 0 }
            let metrics = String(decoding: api.metrics.exposition(), as: UTF8.self)
            #expect(metrics.contains("caresync_feed_open_event_streams 0.0"))
            // A HEAD gets the stream's head and no body: the stream is dropped unread and frees its place too.
            let head = try await server.send("HEAD", Self.changes, token: server.tokens.aliceDevice, headers: [("Accept", "text/event-stream")])
            #expect(head.status == 200 && head.header("Content-Type") == "text/event-stream" && head.body.isEmpty)
            try await Eventually.until(deadline: .seconds(3)) { api.streams.open == 0 }
        }
    }

    @Test func shutdownEndsAnOpenStreamCleanly() async throws {
        try await TestServer.with { server in
            let stream = try await EventStreamClient.open(port: server.port, path: Self.changes, token: server.tokens.aliceDevice)
            _ = try #require(try await stream.next())
            try await Eventually.until { server.app.api.notifier.waiterCount == 1 }
            let started = ContinuousClock.now
            async let stopped: Void = server.app.shutdown(gracePeriod: .seconds(20))
            let rest = try await stream.read { _ in ContinuousClock.now - started > .seconds(25) }
            let ended = ContinuousClock.now - started
            stream.close()
            await stopped
            #expect(rest.isEmpty)
            #expect(stream.endedCleanly, "shutdown should end the stream with its last chunk")
            #expect(ended < .seconds(10), "the stream should end at once, not at the grace period (\(ended))")
        }
    }

    @Test func refusalsComeBeforeTheStreamAsProblems() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let accept = ("Accept", "text/event-stream")
            let badAnchor = try await server.send("GET", Self.changes + "?anchor=nonsense", token: t.aliceDevice, headers: [accept])
            badAnchor.expectProblem(400, "invalidAnchor")
            #expect(badAnchor.header("Content-Type") == "application/problem+json")
            let badID = try await server.send("GET", Self.changes, token: t.aliceDevice, headers: [accept, ("Last-Event-ID", "nonsense")])
            badID.expectProblem(400, "invalidAnchor")
            let badLimit = try await server.send("GET", Self.changes + "?limit=0&types=walking", token: t.aliceDevice, headers: [accept])
            #expect(badLimit.status == 422 && badLimit.json["errors"]?.arrayValue?.count == 2)
            let outside = try await server.send("GET", "/v1/patients/bob/changes", token: t.aliceDevice, headers: [accept])
            #expect(outside.status == 404)
            #expect(server.app.api.streams.open == 0)
        }
    }

    @Test func curlReadsTheStreamToItsEnd() async throws {
        try await TestServer.with(configure: { $0.stream.lifetime = .seconds(1) }) { server in
            try await Self.post(server, "curl", count: 2, token: server.tokens.aliceDevice)
            let arguments = ["curl", "-N", "-sS", "--max-time", "10", "-H", "Accept: text/event-stream",
                             "-H", "Authorization: Bearer \(server.tokens.aliceDevice)",
                             "http://127.0.0.1:\(server.port)\(Self.changes)"]
            // On a thread of its own: the server under test shares the cooperative pool.
            let (status, bytes) = try await onDedicatedThread { () throws -> (Int32, Data) in
                let (ended, output) = try ChildProcess.run("/usr/bin/env", arguments)
                return (ended.status, output)
            }
            #expect(status == 0, "curl should see a complete chunked answer")
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("id: "))
            #expect(text.contains("\nevent: changes\ndata: {\"anchor\":"))
            #expect(text.hasSuffix("\n\n"))
        }
    }
}
