import Foundation

/// Applies SQL migration files in name order, each in its own transaction, and records them with a checksum.
///
/// Files are named `NNNN_name.sql` (e.g. `0001_sync_store.sql`) and live in one directory (the repository's
/// top-level `migrations/`). Applied files are recorded in `schema_migrations` (name, SHA-256, time).
/// Running again applies only new files; a recorded file whose content changed, or one that is recorded
/// but missing from the directory, is refused with `MigrationError` naming it, before anything runs.
///
/// ```swift
/// let applied = try Migrator(directory: URL(fileURLWithPath: "migrations")).migrate(database)
/// ```
public struct Migrator: Sendable {
    /// One migration: the file name (its id) and its SQL.
    public struct Migration: Hashable, Sendable {
        /// The file name, e.g. `0001_sync_store.sql`; migrations run in this name's order.
        public var name: String
        /// The SQL, one or more statements.
        public var sql: String
        /// SHA-256 of the SQL's UTF-8 bytes, hex.
        public var checksum: String { SHA256Digest.hex(Array(sql.utf8)) }
        /// A migration from its name and SQL.
        public init(name: String, sql: String) { self.name = name; self.sql = sql }
    }

    /// The migrations, sorted by name.
    public let migrations: [Migration]

    /// Migrations given in code (tests, embedded resources).
    public init(migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.name < $1.name }
    }

    /// Every `NNNN_*.sql` file of `directory`.
    public init(directory: URL) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { Migrator.isMigrationFileName($0) }
        } catch {
            throw MigrationError.unreadableDirectory(path: directory.path)
        }
        var migrations: [Migration] = []
        for name in names {
            let sql = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            migrations.append(Migration(name: name, sql: sql))
        }
        self.init(migrations: migrations)
    }

    /// Whether `name` looks like `0001_something.sql`.
    public static func isMigrationFileName(_ name: String) -> Bool {
        let chars = Array(name)
        guard name.hasSuffix(".sql"), chars.count > 9, chars[4] == "_" else { return false }
        return chars[0..<4].allSatisfy(\.isASCII) && chars[0..<4].allSatisfy(\.isNumber)
    }

    /// The table that records applied migrations.
    public static let tableName = "schema_migrations"

    /// Applies every pending migration in order; returns the names it applied (empty when up to date).
    @discardableResult
    public func migrate(_ database: Database, now: Date = Date()) throws -> [String] {
        try database.writeWithoutTransaction { db in try migrate(db, now: now) }
    }

    /// Applies pending migrations on one connection (which must not be in a transaction).
    @discardableResult
    public func migrate(_ db: Connection, now: Date = Date()) throws -> [String] {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS \(Migrator.tableName) (
                name TEXT PRIMARY KEY NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL) WITHOUT ROWID
            """)
        let applied = try appliedChecksums(db)
        try verify(applied)
        var done: [String] = []
        for migration in migrations where applied[migration.name] == nil {
            do {
                try db.transaction(.immediate) {
                    try db.execute(migration.sql)
                    try db.execute("INSERT INTO \(Migrator.tableName) (name, checksum, applied_at) VALUES (?, ?, ?)",
                                   [.text(migration.name), .text(migration.checksum),
                                    .text(ISO8601DateFormatter().string(from: now))])
                }
            } catch {
                throw MigrationError.failed(name: migration.name, underlying: "\(error)")
            }
            done.append(migration.name)
        }
        return done
    }

    /// The names not yet applied to `database`.
    public func pending(_ database: Database) throws -> [String] {
        try database.writeWithoutTransaction { db in
            let exists = try db.scalarInt64("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
                                            [.text(Migrator.tableName)]) ?? 0
            let applied = exists > 0 ? try appliedChecksums(db) : [:]
            try verify(applied)
            return migrations.map(\.name).filter { applied[$0] == nil }
        }
    }

    private func appliedChecksums(_ db: Connection) throws -> [String: String] {
        var applied: [String: String] = [:]
        for (name, checksum) in try db.fetchAll("SELECT name, checksum FROM \(Migrator.tableName)", [], { ($0.string(0), $0.string(1)) }) {
            applied[name] = checksum
        }
        return applied
    }

    private func verify(_ applied: [String: String]) throws {
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.name, $0) })
        for name in applied.keys.sorted() {
            guard let migration = known[name] else { throw MigrationError.missingFile(name: name) }
            guard migration.checksum == applied[name] else { throw MigrationError.checksumMismatch(name: name) }
        }
    }
}

/// Why the migrator refused to run.
public enum MigrationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An applied migration's file content changed since it ran.
    case checksumMismatch(name: String)
    /// A migration recorded as applied has no file (the database is newer than this code).
    case missingFile(name: String)
    /// A migration's SQL failed; it was rolled back.
    case failed(name: String, underlying: String)
    /// The migrations directory is missing or unreadable.
    case unreadableDirectory(path: String)

    /// A sentence naming the file.
    public var description: String {
        switch self {
        case .checksumMismatch(let name): "migration \(name) was changed after it was applied (checksum differs); refusing to run"
        case .missingFile(let name): "migration \(name) is recorded as applied but its file is missing; refusing to run"
        case .failed(let name, let underlying): "migration \(name) failed and was rolled back: \(underlying)"
        case .unreadableDirectory(let path):
            "cannot read the migrations directory \(path) (a relative path is taken from the working directory)"
        }
    }
}
