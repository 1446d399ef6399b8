import CareSyncCore
import CareSyncTestSupport
import CareSyncStore
import Foundation
import Testing
@testable import CareSyncServer

@Suite struct RetentionJobTests {
    static let t0 = Date(timeIntervalSince1970: 1_592_474_400)  // 2020-06-18T10:00:00Z
    static let day: TimeInterval = 86_400

    /// A migrated store in a fresh temporary folder.
    static func makeStore() throws -> (SQLiteSyncStore, TemporaryFile) {
        let placeholder = try TemporaryFile.make(contents: "", name: "placeholder")
        let path = (placeholder.path as NSString).deletingLastPathComponent + "/store.sqlite"
        let migrations = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("migrations")
        return (try SQLiteSyncStore(path: path, migrationsDirectory: migrations), placeholder)
    }

    static func sample(_ id: String) -> SampleInput {
        SampleInput(type: .sixMinuteWalkTestDistance, value: 450, start: t0, end: t0.addingTimeInterval(360),
                    syncIdentifier: id, syncVersion: 1, metadata: [:])
    }

    @Test func purgeBeyondRetentionExpiresOlderAnchors() throws {
        let (store, folder) = try Self.makeStore()
        defer { folder.remove() }
        let inserted = try store.upsert([Self.sample("a"), Self.sample("b")], patient: "P1", source: "app", now: Self.t0)
        let anchorBeforeDelete = inserted.anchor
        _ = try store.delete(uuids: [inserted.results[0].uuid], syncIdentifiers: [], patient: "P1", source: "app",
                             now: Self.t0.addingTimeInterval(Self.day))

        // 50 days later, within 90 days of retention: nothing purged, the old anchor still sees the deletion.
        let early = RetentionJob(store: store, retentionDays: 90, clock: ManualClock(at: Self.t0.addingTimeInterval(50 * Self.day)).serverClock)
        #expect(try early.runOnce() == 0)
        let page = try store.changes(ChangeQuery(patient: "P1", anchor: anchorBeforeDelete))
        #expect(page.deletedObjects.map(\.uuid) == [inserted.results[0].uuid])

        // 100 days later: the tombstone is purged and the anchor before it is expired (410 anchorExpired).
        let metrics = ServerMetrics()
        let late = RetentionJob(store: store, retentionDays: 90, metrics: metrics,
                                clock: ManualClock(at: Self.t0.addingTimeInterval(100 * Self.day)).serverClock)
        #expect(try late.runOnce() == 1)
        #expect(throws: SyncError.anchorExpired) {
            try store.changes(ChangeQuery(patient: "P1", anchor: anchorBeforeDelete))
        }
        // Restarting from no anchor works and shows only the surviving sample.
        let fresh = try store.changes(ChangeQuery(patient: "P1"))
        #expect(fresh.samples.map(\.syncIdentifier) == ["b"])
        #expect(fresh.deletedObjects.isEmpty)
        #expect(try store.changes(ChangeQuery(patient: "P1", anchor: fresh.anchor)).samples.isEmpty)
        #expect(String(decoding: metrics.exposition(), as: UTF8.self)
            .contains("caresync_retention_tombstones_purged_total 1"))
    }

    @Test func startRunsAtOnceAndRepeatsUntilStopped() async throws {
        let (store, folder) = try Self.makeStore()
        defer { folder.remove() }
        let collector = LineCollector()
        let logger = Observability.makeLogger(label: "retention", format: .json, level: .info, sink: collector.sink)
        let job = RetentionJob(store: store, retentionDays: 1, interval: .milliseconds(20), logger: logger, clock: .system)
        job.start()
        job.start()  // a second start does nothing
        try await Eventually.until(deadline: .seconds(5)) { collector.lines.filter { $0.contains("retention.purged") }.count >= 3 }
        await job.stop()
        let runs = collector.lines.filter { $0.contains("retention.purged") }.count
        #expect(runs >= 3)
        try await Task.sleep(for: .milliseconds(100))
        #expect(collector.lines.filter { $0.contains("retention.purged") }.count == runs, "ran after stop()")
    }

    @Test func horizonIsRetentionDaysBeforeNow() throws {
        let (store, folder) = try Self.makeStore()
        defer { folder.remove() }
        let job = RetentionJob(store: store, retentionDays: 30, clock: .system)
        #expect(job.horizon(at: Self.t0) == Self.t0.addingTimeInterval(-30 * Self.day))
    }
}
