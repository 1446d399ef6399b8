import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncStore

@Suite struct MigratorTests {
    private func write(_ files: [String: String], in dir: TemporaryDirectory) throws -> URL {
        let migrations = dir.url.appendingPathComponent("migrations")
        try FileManager.default.createDirectory(at: migrations, withIntermediateDirectories: true)
        for (name, sql) in files { try sql.write(to: migrations.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return migrations
    }

    @Test func appliesInOrderAndTwiceChangesNothing() throws {
        let dir = try TemporaryDirectory()
        let url = try write([
            "0002_add.sql": "INSERT INTO t VALUES (2);",
            "0001_create.sql": "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);",
            "README.md": "not a migration",
        ], in: dir)
        let database = try Database(path: dir.path("db.sqlite"))
        #expect(try Migrator(directory: url).pending(database) == ["0001_create.sql", "0002_add.sql"])
        #expect(try Migrator(directory: url).migrate(database) == ["0001_create.sql", "0002_add.sql"])
        let schemaBefore = try database.read { try $0.fetchAll("SELECT sql FROM sqlite_master ORDER BY name") { $0.optionalString(0) } }
        #expect(try Migrator(directory: url).migrate(database) == [])
        #expect(try database.read { try $0.scalarString("SELECT group_concat(x) FROM t") } == "1,2")
        #expect(try database.read { try $0.fetchAll("SELECT sql FROM sqlite_master ORDER BY name") { $0.optionalString(0) } } == schemaBefore)
        let recorded = try database.read { try $0.fetchAll("SELECT name, checksum FROM schema_migrations ORDER BY name") { [$0.string(0), $0.string(1)] } }
        #expect(recorded == [["0001_create.sql", SHA256Digest.hex(Array("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);".utf8))],
                             ["0002_add.sql", SHA256Digest.hex(Array("INSERT INTO t VALUES (2);".utf8))]])
    }

    @Test func newFileIsAppliedLater() throws {
        let dir = try TemporaryDirectory()
        let url = try write(["0001_create.sql": "CREATE TABLE t (x INTEGER);"], in: dir)
        let database = try Database(path: dir.path("db.sqlite"))
        try Migrator(directory: url).migrate(database)
        _ = try write(["0002_add.sql": "INSERT INTO t VALUES (7);"], in: dir)
        #expect(try Migrator(directory: url).migrate(database) == ["0002_add.sql"])
        #expect(try database.read { try $0.scalarInt64("SELECT x FROM t") } == 7)
    }

    @Test func changedAppliedFileIsRefusedByName() throws {
        let dir = try TemporaryDirectory()
        let url = try write(["0001_create.sql": "CREATE TABLE t (x INTEGER);", "0002_more.sql": "CREATE TABLE u (y);"], in: dir)
        let database = try Database(path: dir.path("db.sqlite"))
        try Migrator(directory: url).migrate(database)
        _ = try write(["0001_create.sql": "CREATE TABLE t (x INTEGER, z TEXT);", "0003_new.sql": "CREATE TABLE v (z);"], in: dir)
        let error = #expect(throws: MigrationError.self) { try Migrator(directory: url).migrate(database) }
        #expect(error == .checksumMismatch(name: "0001_create.sql"))
        #expect(error?.description.contains("0001_create.sql") == true)
        // Nothing ran: the new file was not applied either.
        #expect(try database.read { try $0.scalarInt64("SELECT count(*) FROM sqlite_master WHERE name = 'v'") } == 0)
    }

    @Test func missingDirectoryIsOneClearError() throws {
        let dir = try TemporaryDirectory()
        let missing = URL(fileURLWithPath: dir.path("no-such-migrations"))
        let error = #expect(throws: MigrationError.self) { try Migrator(directory: missing) }
        #expect(error == .unreadableDirectory(path: missing.path))
        #expect(error?.description.contains("no-such-migrations") == true)
    }

    @Test func failingMigrationRollsBackAndNamesItself() throws {
        let dir = try TemporaryDirectory()
        let url = try write(["0001_ok.sql": "CREATE TABLE t (x);", "0002_bad.sql": "CREATE TABLE u (y); INSERT INTO nope VALUES (1);"], in: dir)
        let database = try Database(path: dir.path("db.sqlite"))
        let error = #expect(throws: MigrationError.self) { try Migrator(directory: url).migrate(database) }
        guard case .failed(let name, _)? = error else { Issue.record("expected .failed, got \(String(describing: error))"); return }
        #expect(name == "0002_bad.sql")
        #expect(try database.read { try $0.scalarInt64("SELECT count(*) FROM sqlite_master WHERE name = 'u'") } == 0)
        #expect(try database.read { try $0.scalarInt64("SELECT count(*) FROM schema_migrations") } == 1)
    }

    @Test func appliedFileMissingFromDirectoryIsRefused() throws {
        let dir = try TemporaryDirectory()
        let url = try write(["0001_create.sql": "CREATE TABLE t (x);"], in: dir)
        let database = try Database(path: dir.path("db.sqlite"))
        try Migrator(directory: url).migrate(database)
        let error = #expect(throws: MigrationError.self) { try Migrator(migrations: []).migrate(database) }
        #expect(error == .missingFile(name: "0001_create.sql"))
    }
}
