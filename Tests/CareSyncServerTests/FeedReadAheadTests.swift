import CareSyncCore
import Foundation
import Testing
import CareSyncTestSupport
@testable import CareSyncServer

/// A walk's next page read while the page before it is sent (`PagesAhead`): answered only when it is what a fresh
/// read would answer.
@Suite struct FeedReadAheadTests {
    /// 1,200 of alice's samples, `s0` … `s1199` at version 1, in the feed's order.
    static func seed(_ server: TestServer) async throws {
        for batch in stride(from: 0, to: 1_200, by: 400) {
            let samples = (batch..<batch + 400).map { Fixtures.steps(Double($0), id: "s\($0)", version: 1) }
            let reply = try await server.send("POST", "/v1/patients/alice/samples", token: server.tokens.aliceDevice,
                                              json: ["samples": .array(samples)])
            #expect(reply.status == 200)
        }
    }

    /// The sync identifiers and versions of a page's samples.
    static func ids(_ page: TestReply) -> [String] {
        (page.json["samples"]?.arrayValue ?? []).map { "\($0["syncIdentifier"]?.stringValue ?? "?")@\($0["syncVersion"]?.numberValue ?? 0)" }
    }

    /// Pages read ahead and answered so far, from the server's metrics.
    static func readAhead(_ server: TestServer) async throws -> Int {
        let text = String(decoding: try await server.send("GET", "/metrics").body, as: UTF8.self)
        let line = text.split(separator: "\n").first { $0.hasPrefix(MetricName.feedPagesReadAhead + " ") }
        return try #require(line.flatMap { $0.split(separator: " ").last }.flatMap { Int($0) })
    }

    @Test func aWalkIsAnsweredFromPagesReadAheadInOrder() async throws {
        try await TestServer.with { server in
            try await Self.seed(server)
            var anchor: String?, walked: [String] = [], pages = 0
            var asked = ContinuousClock.now, slow = false
            repeat {
                let query = anchor.map { "?limit=500&anchor=\($0)" } ?? "?limit=500"
                // A read ahead is kept 5 s from the end of the read before it. On a machine slow enough (under
                // ThreadSanitizer) to take longer from one request to the next, it may be gone.
                slow = slow || ContinuousClock.now - asked > .seconds(4)
                asked = ContinuousClock.now
                let page = try await server.send("GET", "/v1/patients/alice/changes\(query)", token: server.tokens.aliceDevice)
                #expect(page.status == 200)
                walked += Self.ids(page)
                pages += 1
                anchor = page.json["hasMore"] == true ? page.json["anchor"]?.stringValue : nil
                if anchor != nil { #expect(server.app.api.reader.pagesAhead.count == 1, "the next page is being read") }
            } while anchor != nil
            #expect(pages == 3)
            #expect(walked == (0..<1_200).map { "s\($0)@1.0" })
            let readAhead = try await Self.readAhead(server)
            if !slow { #expect(readAhead == 2, "pages 2 and 3 should have been read ahead; \(readAhead) were") }
        }
    }

    @Test func aCommitBetweenPagesIsSeenByTheNextPage() async throws {
        try await TestServer.with { server in
            try await Self.seed(server)
            let first = try await server.send("GET", "/v1/patients/alice/changes?limit=500", token: server.tokens.aliceDevice)
            let anchor = try #require(first.json["anchor"]?.stringValue)
            #expect(server.app.api.reader.pagesAhead.count == 1)
            // s700, on the page read ahead, is replaced by version 2: it leaves its place and comes at the end.
            let replaced = try await server.send("POST", "/v1/patients/alice/samples", token: server.tokens.aliceDevice,
                                                 json: ["samples": [Fixtures.steps(7_000, id: "s700", version: 2)]])
            #expect(replaced.status == 200)
            let second = try await server.send("GET", "/v1/patients/alice/changes?limit=500&anchor=\(anchor)", token: server.tokens.aliceDevice)
            let ids = Self.ids(second)
            #expect(!ids.contains("s700@1.0"), "the page read before the commit was answered")
            #expect(ids == (500..<1_001).filter { $0 != 700 }.map { "s\($0)@1.0" })
            #expect(try await Self.readAhead(server) == 0)
        }
    }

    @Test func anErasureDropsThePatientsPagesReadAhead() async throws {
        try await TestServer.with { server in
            try await Self.seed(server)
            let first = try await server.send("GET", "/v1/patients/alice/changes?limit=500", token: server.tokens.therapist)
            #expect(first.status == 200)
            #expect(server.app.api.reader.pagesAhead.count == 1)
            let erased = try await server.send("DELETE", "/v1/patients/alice", token: server.tokens.admin, headers: [("Confirm-Erase", "alice")])
            #expect(erased.status == 200)
            #expect(server.app.api.reader.pagesAhead.count == 0)
        }
    }
}
