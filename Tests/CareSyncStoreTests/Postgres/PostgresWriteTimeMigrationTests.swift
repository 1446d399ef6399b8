import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncPostgres

/// PostgreSQL migration 0018 on a store with history: the changes made before it take the migration's time (one
/// commit row at the head then), and writes after it record their own — as `WriteTimeMigrationTests` on SQLite.
@Suite(.enabled(if: PostgresFixture.isAvailable, "CARESYNC_TEST_POSTGRES_URL names no server"))
struct PostgresWriteTimeMigrationTests {
    @Test func changesFromBeforeTheMigrationTakeItsTime() throws {
        let database = try PostgresDatabase(try PostgresFixture.makeConfiguration())
        let all = try PostgresMigrator(directory: PostgresFixture.migrationsURL).migrations
        _ = try PostgresMigrator(migrations: all.filter { $0.name < "0018" }).migrate(database)
        // Two changes of the old schema (this code writes commit times, so the head is advanced directly).
        try database.write { db in try db.execute("UPDATE store_head SET seq = 2") }
        #expect(try PostgresMigrator(migrations: all).migrate(database).contains("0018_commit_times.sql"))
        let store = try PostgresSyncStore(database: database)
        let head = try store.currentAnchor().sequence
        #expect(head == 2)
        let migrated = try #require(try store.writeTime(of: head), "the head has the migration's time")
        #expect(try store.writeTime(of: 1) == migrated, "every earlier change takes it")
        let t0 = Date(timeIntervalSince1970: 1_592_474_400)
        #expect(migrated > t0 + 86_400, "the migration's time, not an old one")
        let later = migrated.addingTimeInterval(3600)
        _ = try store.upsert([SampleInput(type: .stepCount, value: 3, start: t0 + 120, end: t0 + 120)], patient: "p", source: "s", now: later)
        let page = try store.changes(ChangeQuery(patient: "p", writeTimes: true))
        #expect(page.samples.map { page.writeTimes[$0.uuid].map(SyncRules.milliseconds) } == [SyncRules.milliseconds(later)])
        #expect(try store.position(committedBefore: migrated) == 0)
        #expect(try store.position(committedBefore: later) == head)
        #expect(try store.position(committedBefore: later + 0.001) == 3)
    }
}
