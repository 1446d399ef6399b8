import Foundation

/// Applies migration files in name order, each in its own transaction, and records them with a checksum
/// (GRDB's `DatabaseMigrator` rules): the SQLite `Migrator` and the `PostgresMigrator` are this runner over
/// their own directory (`migrations/`, `migrations/postgresql/`) and their dialect's `MigrationConnection`.
///
/// Running again applies only new files; a recorded file whose content changed, or one that is recorded
/// but missing from the directory, is refused with `MigrationError` naming it, before anything runs.
public struct MigrationRunner: Sendable {
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
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter(Self.isMigrationFileName)
        } catch {
            throw MigrationError.unreadableDirectory(path: directory.path)
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

    /// The table that records applied migrations.
    public static let tableName = "schema_migrations"

    /// Applies every pending migration in order; returns the names it applied (empty when up to date).
    public func migrate(_ db: some MigrationConnection, now: Date = Date()) throws -> [String] {
        try db.exclusively {
            try db.createMigrationTable()
            let applied = try db.appliedMigrations()
            try verify(applied)
            var done: [String] = []
            for migration in migrations where applied[migration.name] == nil {
                do {
                    try db.apply(migration, at: now)
                } catch {
                    throw MigrationError.failed(name: migration.name, underlying: "\(error)")
                }
                done.append(migration.name)
            }
            return done
        }
    }

    /// The names not yet applied (after the same checks as `migrate`).
    public func pending(_ db: some MigrationConnection) throws -> [String] {
        let applied = try db.migrationTableExists() ? try db.appliedMigrations() : [:]
        try verify(applied)
        return migrations.map(\.name).filter { applied[$0] == nil }
    }

    /// Refuses a recorded migration that has no file, or whose file changed.
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
