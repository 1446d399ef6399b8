import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncStore

/// Migration 0026 on a store with history: the changes made before it take the migration's time (one commit row at
/// the head then), and writes after it record their own.
@Suite struct WriteTimeMigrationTests {
    @Test func changesFromBeforeTheMigrationTakeItsTime() throws {
        let dir = try TemporaryDirectory()
        let older = dir.url.appendingPathComponent("migrations")
        try FileManager.default.createDirectory(at: older, withIntermediateDirectories: true)
        let all = try FileManager.default.contentsOfDirectory(atPath: StoreFixture.migrationsURL.path).filter { $0.hasSuffix(".sql") }
        for name in all where name < "0026" {
            try FileManager.default.copyItem(at: StoreFixture.migrationsURL.appendingPathComponent(name), to: older.appendingPathComponent(name))
        }
        let database = try Database(path: dir.path("store.sqlite"))
        _ = try Migrator(directory: older).migrate(database)
        let t0 = Date(timeIntervalSince1970: 1_592_474_400)
        // Two changes of the old schema (this code writes commit times, so the log is written directly).
        try database.write { db in
            for _ in 0..<2 { try db.execute("INSERT INTO change_log (patient, kind, uuid) VALUES ('p', 0, randomblob(16))") }
        }
        #expect(try Migrator(directory: StoreFixture.migrationsURL).migrate(database).contains("0026_commit_times.sql"))
        try Self.expectMigrationTime(in: try SQLiteSyncStore(database: database), after: t0)
    }

    /// What either backend's migration leaves, with two changes made before it: both take the migration's time (later
    /// than `t0`), and a write after it records its own.
    static func expectMigrationTime(in store: some SyncStore, after t0: Date) throws {
        let head = try store.currentAnchor().sequence
        #expect(head == 2)
        let migrated = try #require(try store.writeTime(of: head), "the head has the migration's time")
        #expect(try store.writeTime(of: 1) == migrated, "every earlier change takes it")
        #expect(migrated > t0 + 86_400, "the migration's time, not the writes' own")
        let later = migrated.addingTimeInterval(3600)
        _ = try store.upsert([SampleInput(type: .stepCount, value: 3, start: t0 + 120, end: t0 + 120)], patient: "p", source: "s", now: later)
        let page = try store.changes(ChangeQuery(patient: "p", writeTimes: true))
        #expect(page.samples.map { page.writeTimes[$0.uuid].map(SyncRules.milliseconds) } == [SyncRules.milliseconds(later)])
        #expect(try store.position(committedBefore: migrated) == 0)
        #expect(try store.position(committedBefore: later) == head)
        #expect(try store.position(committedBefore: later + 0.001) == 3)
    }
}
