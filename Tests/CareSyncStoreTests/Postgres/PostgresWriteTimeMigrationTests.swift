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
        try WriteTimeMigrationTests.expectMigrationTime(in: try PostgresSyncStore(database: database),
                                                        after: Date(timeIntervalSince1970: 1_592_474_400))
    }
}
