import Foundation
import Testing
@testable import CareSyncPostgres
@testable import CareSyncStore

/// `migrations/postgresql` by the SQLite migrator's rules: in order, once, checksums, refusals by name.
@Suite(.enabled(if: PostgresFixture.isAvailable, "CARESYNC_TEST_POSTGRES_URL names no server"))
struct PostgresMigratorTests {
    typealias Migration = PostgresMigrator.Migration

    func values(_ database: PostgresDatabase) throws -> [Int64] {
        try database.read { try $0.query("SELECT x FROM t ORDER BY x").map { try $0.int64(0) } }
    }

    @Test func appliesInOrderOnceAndRecordsTheSameChecksumsAsSQLite() throws {
        let database = try PostgresDatabase(try PostgresFixture.makeConfiguration())
        let create = "CREATE TABLE t (x bigint); INSERT INTO t VALUES (1);", add = "INSERT INTO t VALUES (2);"
        let migrator = PostgresMigrator(migrations: [Migration(name: "0002_add.sql", sql: add), Migration(name: "0001_create.sql", sql: create)])
        #expect(try migrator.pending(database) == ["0001_create.sql", "0002_add.sql"])
        #expect(try migrator.migrate(database) == ["0001_create.sql", "0002_add.sql"])
        #expect(try migrator.migrate(database) == [])
        #expect(try values(database) == [1, 2])
        let recorded = try database.read { try $0.query("SELECT checksum FROM schema_migrations ORDER BY name").map { try $0.string(0) } }
        #expect(recorded == [SHA256Digest.hex(Array(create.utf8)), SHA256Digest.hex(Array(add.utf8))])
    }

    @Test func aChangedOrMissingFileIsRefusedByNameBeforeAnythingRuns() throws {
        let database = try PostgresDatabase(try PostgresFixture.makeConfiguration())
        try PostgresMigrator(migrations: [Migration(name: "0001_create.sql", sql: "CREATE TABLE t (x bigint);")]).migrate(database)
        let changed = PostgresMigrator(migrations: [Migration(name: "0001_create.sql", sql: "CREATE TABLE t (x text);"),
                                                    Migration(name: "0002_add.sql", sql: "INSERT INTO t VALUES (1);")])
        #expect(throws: PostgresMigrationError.checksumMismatch(name: "0001_create.sql")) { try changed.migrate(database) }
        let missing = PostgresMigrator(migrations: [Migration(name: "0002_add.sql", sql: "INSERT INTO t VALUES (1);")])
        #expect(throws: PostgresMigrationError.missingFile(name: "0001_create.sql")) { try missing.migrate(database) }
        #expect(try values(database) == [])
    }

    @Test func aFailingMigrationRollsBackWhole() throws {
        let database = try PostgresDatabase(try PostgresFixture.makeConfiguration())
        let broken = PostgresMigrator(migrations: [Migration(name: "0001_half.sql", sql: "CREATE TABLE t (x bigint); INSERT INTO nope VALUES (1);")])
        #expect(throws: PostgresMigrationError.self) { try broken.migrate(database) }
        #expect(try database.read { try $0.query("SELECT to_regclass('t') IS NULL").first { try $0.bool(0) } } == true)
        #expect(try broken.pending(database) == ["0001_half.sql"])
    }

    @Test func theRepositoryMigrationsApplyAndTheStoreOpens() throws {
        let database = try PostgresDatabase(try PostgresFixture.makeConfiguration())
        let migrator = try PostgresMigrator(directory: PostgresFixture.migrationsURL)
        #expect(try migrator.migrate(database) == migrator.migrations.map(\.name))
        let (one, two) = (try PostgresSyncStore(database: database), try PostgresSyncStore(database: database))
        #expect(one.storeID.count == 32 && one.storeID == two.storeID)  // the identity is the database's
    }
}
