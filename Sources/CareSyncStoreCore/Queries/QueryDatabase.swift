/// A database the shared queries run in its transactions: SQLite's `Database`, PostgreSQL's `PostgresDatabase`.
public protocol QueryDatabase: Sendable {
    /// The connection a transaction runs on.
    associatedtype Connection: QueryConnection
    /// Runs `body` in a write transaction and commits it.
    func write<T>(_ body: (Connection) throws -> T) throws -> T
    /// Runs `body` in a read transaction.
    func read<T>(_ body: (Connection) throws -> T) throws -> T
}
