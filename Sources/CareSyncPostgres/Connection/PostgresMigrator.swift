import Foundation

/// Applies `migrations/postgresql/NNNN_name.sql` in name order, each in its own transaction, and records
/// them with a SHA-256 checksum in `schema_migrations`: the same rules as the SQLite `Migrator`.
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
    public struct Migration: Hashable, Sendable {
        /// The file name, e.g. `0001_store.sql`; migrations run in this name's order.
        public var name: String
        /// The SQL, one or more statements.
        public var sql: String
        /// A migration from its name and SQL.
        public init(name: String, sql: String) { self.name = name; self.sql = sql }
    }

    /// The migrations, sorted by name.
    public let migrations: [Migration]

    /// The table that records applied migrations (in the connection's schema).
    public static let tableName = "schema_migrations"
    /// The advisory lock key instances take while migrating (any constant; this one spells "CSMG").
    static let lockKey: Int64 = 0x4353_4D47

    /// Migrations given in code (tests).
    public init(migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.name < $1.name }
    }

    /// Every `NNNN_*.sql` file of `directory`.
    public init(directory: URL) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter(Self.isMigrationFileName)
        } catch {
            throw PostgresMigrationError.unreadableDirectory(path: directory.path)
        }
        self.init(migrations: try names.map { name in
            Migration(name: name, sql: try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))
        })
    }

    /// Whether `name` looks like `0001_something.sql`.
    public static func isMigrationFileName(_ name: String) -> Bool {
        let chars = Array(name)
        guard name.hasSuffix(".sql"), chars.count > 9, chars[4] == "_" else { return false }
        return chars[0..<4].allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Applies every pending migration in order; returns the names it applied (empty when up to date).
    @discardableResult
    public func migrate(_ database: PostgresDatabase) throws -> [String] {
        try database.withConnection { db in try migrate(db) }
    }

    /// Applies pending migrations on one connection (which must not be in a transaction).
    @discardableResult
    public func migrate(_ db: PostgresConnection) throws -> [String] {
        try db.query("SELECT pg_advisory_lock($1)", [.int64(Self.lockKey)])
        defer { _ = try? db.query("SELECT pg_advisory_unlock($1)", [.int64(Self.lockKey)]) }
        try db.execute("""
            CREATE TABLE IF NOT EXISTS \(Self.tableName) (
                name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
            """)
        let applied = try appliedChecksums(db)
        var done: [String] = []
        for migration in migrations {
            let checksum = try Self.checksum(db, migration.sql)
            if let recorded = applied[migration.name] {
                guard recorded == checksum else { throw PostgresMigrationError.checksumMismatch(name: migration.name) }
                continue
            }
            done.append(migration.name)
        }
        for name in applied.keys.sorted() where !migrations.contains(where: { $0.name == name }) {
            throw PostgresMigrationError.missingFile(name: name)
        }
        for migration in migrations where done.contains(migration.name) {
            do {
                try db.transaction {
                    try db.execute(migration.sql)
                    try db.query("INSERT INTO \(Self.tableName) (name, checksum) VALUES ($1, $2)",
                                 [.text(migration.name), .text(try Self.checksum(db, migration.sql))])
                }
            } catch {
                throw PostgresMigrationError.failed(name: migration.name, underlying: "\(error)")
            }
        }
        return done
    }

    /// The names not yet applied.
    public func pending(_ database: PostgresDatabase) throws -> [String] {
        try database.withConnection { db in
            let exists = try db.query("SELECT to_regclass($1) IS NOT NULL", [.text(Self.tableName)]).first { try $0.bool(0) } ?? false
            let applied = exists ? try appliedChecksums(db) : [:]
            return migrations.map(\.name).filter { applied[$0] == nil }
        }
    }

    private func appliedChecksums(_ db: PostgresConnection) throws -> [String: String] {
        var applied: [String: String] = [:]
        for (name, checksum) in try db.query("SELECT name, checksum FROM \(Self.tableName)").map({ (try $0.string(0), try $0.string(1)) }) {
            applied[name] = checksum
        }
        return applied
    }

    /// SHA-256 of the SQL's UTF-8 bytes, hex (the server computes it: the same digest the SQLite migrator records).
    static func checksum(_ db: PostgresConnection, _ sql: String) throws -> String {
        try db.query("SELECT encode(sha256($1), 'hex')", [.bytes(Array(sql.utf8))]).first { try $0.string(0) } ?? ""
    }
}

/// Why the PostgreSQL migrator refused to run.
public enum PostgresMigrationError: Error, Hashable, Sendable, CustomStringConvertible {
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
