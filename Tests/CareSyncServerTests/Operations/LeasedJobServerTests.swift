import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// Jobs that must run once, with two servers on one PostgreSQL database: only the instance holding a job's lease
/// purges (tombstones, idempotency records); the other skips each run. Runs when `CARESYNC_TEST_POSTGRES_URL`
/// names a server (scripts/ci-postgres.sh), skipped otherwise.
@Suite(.enabled(if: postgresTestServerURL != nil, "CARESYNC_TEST_POSTGRES_URL names no server"))
struct LeasedJobServerTests {
    /// Two days from now: past one day of retention and 24 hours of idempotency records.
    static var later: ServerClock { ManualClock(at: Date().addingTimeInterval(2 * 86_400)).serverClock }

    /// Leaves one purgeable tombstone (a sample replaced through the other instance) and one idempotency record;
    /// returns the anchor read before the tombstone.
    static func purgeable(_ servers: TwoInstances) async throws -> String {
        let (t, path) = (servers.tokens, "/v1/patients/alice/samples")
        let first = try await servers.send(1, "POST", path, token: t.aliceDevice, json: ["samples": [Fixtures.steps(1, id: "s1", version: 1)]],
                                           headers: [("Idempotency-Key", "lease-1")])
        #expect(first.status == 200)
        let anchor = try #require(first.json["anchor"]?.stringValue)
        let replaced = try await servers.send(2, "POST", path, token: t.aliceDevice, json: ["samples": [Fixtures.steps(2, id: "s1", version: 2)]])
        #expect(replaced.status == 200)
        return anchor
    }

    @Test func onlyTheLeaseHolderPurges() async throws {
        try await TwoInstances.with { servers in
            let anchor = try await Self.purgeable(servers)
            let (holder, other) = try servers.holderAndOther(of: .retention)
            #expect(try holder.api.store.acquireLease(.retention) && !other.api.store.acquireLease(.retention))
            // The other instance first: were it to purge, the holder would find nothing left.
            #expect(try RetentionJob(store: other.api.store, retentionDays: 1, metrics: other.api.metrics, clock: Self.later).runOnce() == nil)
            #expect(try RetentionJob(store: holder.api.store, retentionDays: 1, metrics: holder.api.metrics, clock: Self.later).runOnce() == 1)
            #expect(String(decoding: holder.api.metrics.exposition(), as: UTF8.self).contains("caresync_retention_tombstones_purged_total 1"))
            #expect(!String(decoding: other.api.metrics.exposition(), as: UTF8.self).contains("caresync_retention_tombstones_purged_total 1"))
            for instance in [1, 2] {  // purged for both: the anchor before it has expired on each
                let expired = try await servers.send(instance, "GET", "/v1/patients/alice/changes?anchor=\(anchor)", token: servers.tokens.aliceDevice)
                expired.expectProblem(410, "anchorExpired")
            }
            let (keeper, idle) = try servers.holderAndOther(of: .idempotencyExpiry)
            #expect(try IdempotencyExpiryJob(store: idle.api.store, logger: idle.logger).runOnce(now: Self.later.now()) == nil)
            #expect(try IdempotencyExpiryJob(store: keeper.api.store, logger: keeper.logger).runOnce(now: Self.later.now()) == 1)
        }
    }

    @Test func aNonHolderSkipsItsRunsAndLogsIt() async throws {
        try await TwoInstances.with { servers in
            let anchor = try await Self.purgeable(servers)
            let collector = LineCollector()
            let logger = Observability.makeLogger(label: "jobs", format: .json, level: .debug, sink: collector.sink)
            let other = try servers.holderAndOther(of: .retention).other
            #expect(try RetentionJob(store: other.api.store, retentionDays: 1, logger: logger, clock: Self.later).runOnce() == nil)
            let idle = try servers.holderAndOther(of: .idempotencyExpiry).other
            #expect(try IdempotencyExpiryJob(store: idle.api.store, logger: logger).runOnce(now: Self.later.now()) == nil)
            let skipped = collector.lines.filter { $0.contains("job.skipped") }
            #expect(skipped.count == 2 && skipped[0].contains("retention") && skipped[1].contains("idempotency-expiry"), "\(skipped)")
            // Nothing purged: the tombstone is still in the feed after the old anchor.
            let page = try await servers.send(1, "GET", "/v1/patients/alice/changes?anchor=\(anchor)", token: servers.tokens.aliceDevice)
            #expect(page.json["deletedObjects"]?.arrayValue?.count == 1, "\(page.text)")
        }
    }
}
