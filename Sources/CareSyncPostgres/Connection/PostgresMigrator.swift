import CareSyncStoreCore
import Foundation

/// Why the PostgreSQL migrator refused to run: the store core's `MigrationError`, as on SQLite.
public typealias PostgresMigrationError = MigrationError

/// Applies `migrations/postgresql/NNNN_name.sql` in name order, each in its own transaction, and records
/// them with a SHA-256 checksum in `schema_migrations`: the store core's `MigrationRunner`, as the SQLite
/// `Migrator`, in PostgreSQL's dialect.
///
/// Running again applies only new files; a recorded file whose content changed, or one recorded but
/// missing, is refused with `PostgresMigrationError` naming it, before anything runs. Instances starting
/// together migrate one at a time (a session advisory lock), so a migration never runs twice.
///
/// ```swift
/// let applied = try PostgresMigrator(directory: URL(fileURLWithPath: "migrations/postgresql")).migrate(database)
/// ```
public struct PostgresMigrator: Sendable {
    /// One migration: the file name (its id) and its SQL.
    public typealias Migration = CareSyncStoreCore.Migration

    private let runner: MigrationRunner
    /// The migrations, sorted by name.
    public var migrations: [Migration] { runner.migrations }

    /// The table that records applied migrations (in the connection's schema).
    public static let tableName = MigrationRunner.tableName
    /// The advisory lock key instances take while migrating (any constant; this one spells "CSMG").
    static let lockKey: Int64 = 0x4353_4D47

    /// Migrations given in code (tests).
    public init(migrations: [Migration]) { runner = MigrationRunner(migrations: migrations) }

    /// Every `NNNN_*.sql` file of `directory`.
    public init(directory: URL) throws { runner = try MigrationRunner(directory: directory) }

    /// Whether `name` looks like `0001_something.sql`.
    public static func isMigrationFileName(_ name: String) -> Bool { MigrationRunner.isMigrationFileName(name) }

    /// Applies every pending migration in order; returns the names it applied (empty when up to date).
    @discardableResult
    public func migrate(_ database: PostgresDatabase) throws -> [String] {
        try database.withConnection { db in try migrate(db) }
    }

    /// Applies pending migrations on one connection (which must not be in a transaction).
    @discardableResult
    public func migrate(_ db: PostgresConnection) throws -> [String] {
        try runner.migrate(PostgresMigrations(db: db))
    }

    /// The names not yet applied.
    public func pending(_ database: PostgresDatabase) throws -> [String] {
        try database.withConnection { db in try runner.pending(PostgresMigrations(db: db)) }
    }
}

/// The migration runner's statements in PostgreSQL's dialect.
private struct PostgresMigrations: MigrationConnection {
    let db: PostgresConnection

    func createMigrationTable() throws {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS \(MigrationRunner.tableName) (
                name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
            """)
    }

    func migrationTableExists() throws -> Bool {
        try db.query("SELECT to_regclass($1) IS NOT NULL", [.text(MigrationRunner.tableName)]).first { try $0.bool(0) } ?? false
    }

    func appliedMigrations() throws -> [String: String] {
        Dictionary(try db.query("SELECT name, checksum FROM \(MigrationRunner.tableName)").map { (try $0.string(0), try $0.string(1)) },
                   uniquingKeysWith: { first, _ in first })
    }

    func apply(_ migration: Migration, at date: Date) throws {
        try db.transaction {
            try db.execute(migration.sql)
            try db.query("INSERT INTO \(MigrationRunner.tableName) (name, checksum) VALUES ($1, $2)",
                         [.text(migration.name), .text(migration.checksum)])
        }
    }

    /// Instances starting together migrate one at a time: a session advisory lock.
    func exclusively<T>(_ body: () throws -> T) throws -> T {
        try db.query("SELECT pg_advisory_lock($1)", [.int64(PostgresMigrator.lockKey)])
        defer { _ = try? db.query("SELECT pg_advisory_unlock($1)", [.int64(PostgresMigrator.lockKey)]) }
        return try body()
    }
}
