import CareSyncStoreCore
import Foundation

/// Why the migrator refused to run (the store core's, shared with PostgreSQL).
public typealias MigrationError = CareSyncStoreCore.MigrationError
/// SHA-256, the migrations' checksum (the store core's).
typealias SHA256Digest = CareSyncStoreCore.SHA256Digest

/// Applies SQL migration files in name order, each in its own transaction, and records them with a checksum.
///
/// Files are named `NNNN_name.sql` (e.g. `0001_sync_store.sql`) and live in one directory (the repository's
/// top-level `migrations/`). Applied files are recorded in `schema_migrations` (name, SHA-256, time).
/// Running again applies only new files; a recorded file whose content changed, or one that is recorded
/// but missing from the directory, is refused with `MigrationError` naming it, before anything runs.
/// The rules are the store core's `MigrationRunner`; this is its SQLite dialect.
///
/// ```swift
/// let applied = try Migrator(directory: URL(fileURLWithPath: "migrations")).migrate(database)
/// ```
public struct Migrator: Sendable {
    /// One migration: the file name (its id) and its SQL.
    public typealias Migration = CareSyncStoreCore.Migration

    private let runner: MigrationRunner
    /// The migrations, sorted by name.
    public var migrations: [Migration] { runner.migrations }

    /// Migrations given in code (tests, embedded resources).
    public init(migrations: [Migration]) { runner = MigrationRunner(migrations: migrations) }

    /// Every `NNNN_*.sql` file of `directory`.
    public init(directory: URL) throws { runner = try MigrationRunner(directory: directory) }

    /// Whether `name` looks like `0001_something.sql`.
    public static func isMigrationFileName(_ name: String) -> Bool { MigrationRunner.isMigrationFileName(name) }

    /// The table that records applied migrations.
    public static let tableName = MigrationRunner.tableName

    /// Applies every pending migration in order; returns the names it applied (empty when up to date).
    @discardableResult
    public func migrate(_ database: Database, now: Date = Date()) throws -> [String] {
        try database.writeWithoutTransaction { db in try migrate(db, now: now) }
    }

    /// Applies pending migrations on one connection (which must not be in a transaction).
    @discardableResult
    public func migrate(_ db: Connection, now: Date = Date()) throws -> [String] {
        try runner.migrate(SQLiteMigrations(db: db), now: now)
    }

    /// The names not yet applied to `database`.
    public func pending(_ database: Database) throws -> [String] {
        try database.writeWithoutTransaction { db in try runner.pending(SQLiteMigrations(db: db)) }
    }
}

/// The migration runner's statements in SQLite's dialect.
private struct SQLiteMigrations: MigrationConnection {
    let db: Connection

    func createMigrationTable() throws {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS \(MigrationRunner.tableName) (
                name TEXT PRIMARY KEY NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL) WITHOUT ROWID
            """)
    }

    func migrationTableExists() throws -> Bool {
        try db.scalarInt64("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
                           [.text(MigrationRunner.tableName)]) ?? 0 > 0
    }

    func appliedMigrations() throws -> [String: String] {
        Dictionary(try db.fetchAll("SELECT name, checksum FROM \(MigrationRunner.tableName)", [], { ($0.string(0), $0.string(1)) }),
                   uniquingKeysWith: { first, _ in first })
    }

    func apply(_ migration: Migration, at date: Date) throws {
        try db.transaction(.immediate) {
            try db.execute(migration.sql)
            try db.execute("INSERT INTO \(MigrationRunner.tableName) (name, checksum, applied_at) VALUES (?, ?, ?)",
                           [.text(migration.name), .text(migration.checksum), .text(ISO8601DateFormatter().string(from: date))])
        }
    }

    /// The writer connection is the only one that migrates: nothing to lock.
    func exclusively<T>(_ body: () throws -> T) throws -> T { try body() }
}
