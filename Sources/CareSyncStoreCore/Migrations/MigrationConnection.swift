import Foundation

/// A dialect's statements for the migration runner, on one connection outside any transaction.
public protocol MigrationConnection {
    /// Creates the table of applied migrations (`schema_migrations`) if it is missing.
    func createMigrationTable() throws
    /// Whether that table exists (nothing is created).
    func migrationTableExists() throws -> Bool
    /// The applied migrations: name → checksum.
    func appliedMigrations() throws -> [String: String]
    /// Runs `migration`'s SQL and records it as applied at `date`, in one transaction of its own.
    func apply(_ migration: Migration, at date: Date) throws
    /// Runs `body` while no other process migrates the same database (PostgreSQL: an advisory lock).
    func exclusively<T>(_ body: () throws -> T) throws -> T
}
