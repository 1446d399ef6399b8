import CareSyncCore
import Foundation
import Logging
import Testing
@testable import CareSyncServer

/// The retention job against a running server: tombstones older than `retention.tombstoneDays` are purged, and an
/// anchor handed out before a purged deletion answers 410 `anchorExpired` over HTTP.
@Suite(.serialized) struct RetentionTests {
    static let t0 = Date(timeIntervalSince1970: 1_592_474_400)  // 2020-06-18T10:00:00Z: long past any horizon

    static func sample(_ id: String) -> SampleInput {
        SampleInput(type: .sixMinuteWalkTestDistance, value: 450, start: t0, end: t0.addingTimeInterval(360),
                    syncIdentifier: id, syncVersion: 1, metadata: [:])
    }

    @Test func purgeThenAnOlderAnchorAnswers410AndAFreshReadWorks() async throws {
        try await TestServer.with(configure: { $0.tombstoneRetentionDays = 90 }) { server in
            let store = server.app.api.store
            let inserted = try store.upsert([Self.sample("a"), Self.sample("b")], patient: "alice",
                                            source: "org.example.phone.alice", now: Self.t0)
            let before = try await server.send("GET", "/v1/patients/alice/changes", token: server.tokens.aliceDevice)
            #expect(before.status == 200)
            let anchor = try #require(before.json["anchor"]?.stringValue)
            _ = try store.delete(uuids: [inserted.results[0].uuid], syncIdentifiers: [], patient: "alice",
                                 source: "org.example.phone.alice", now: Self.t0.addingTimeInterval(86_400))

            let metrics = server.app.api.metrics
            try RetentionJob(store: server.app.api.store, retentionDays: server.app.configuration.tombstoneRetentionDays,
                             metrics: server.app.api.metrics, clock: server.app.api.clock).runOnce()

            let expired = try await server.send("GET", "/v1/patients/alice/changes?anchor=\(anchor)", token: server.tokens.aliceDevice)
            #expect(expired.status == 410)
            expired.expectProblem(410, "anchorExpired")
            let fresh = try await server.send("GET", "/v1/patients/alice/changes", token: server.tokens.aliceDevice)
            #expect(fresh.status == 200)
            #expect(fresh.json["samples"]?.arrayValue?.count == 1)
            #expect(fresh.json["deletedObjects"]?.arrayValue?.isEmpty == true)
            #expect(String(decoding: metrics.exposition(), as: UTF8.self)
                .contains("caresync_retention_tombstones_purged_total 1"))
        }
    }

    @Test func tombstonesWithinRetentionAreKept() async throws {
        try await TestServer.with(configure: { $0.tombstoneRetentionDays = 90 }) { server in
            let store = server.app.api.store
            let recent = Date().addingTimeInterval(-10 * 86_400)
            let inserted = try store.upsert([Self.sample("c")], patient: "alice", source: "org.example.phone.alice", now: recent)
            let before = try await server.send("GET", "/v1/patients/alice/changes", token: server.tokens.aliceDevice)
            let anchor = try #require(before.json["anchor"]?.stringValue)
            _ = try store.delete(uuids: [inserted.results[0].uuid], syncIdentifiers: [], patient: "alice",
                                 source: "org.example.phone.alice", now: recent)
            try RetentionJob(store: server.app.api.store, retentionDays: server.app.configuration.tombstoneRetentionDays,
                             metrics: server.app.api.metrics, clock: server.app.api.clock).runOnce()
            let page = try await server.send("GET", "/v1/patients/alice/changes?anchor=\(anchor)", token: server.tokens.aliceDevice)
            #expect(page.status == 200)
            #expect(page.json["deletedObjects"]?.arrayValue?.count == 1)
        }
    }
}
