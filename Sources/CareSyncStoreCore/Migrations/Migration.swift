/// One migration: the file name (its id) and its SQL.
public struct Migration: Hashable, Sendable {
    /// The file name, e.g. `0001_sync_store.sql`; migrations run in this name's order.
    public var name: String
    /// The SQL, one or more statements.
    public var sql: String
    /// SHA-256 of the SQL's UTF-8 bytes, hex: what `schema_migrations` records.
    public var checksum: String { SHA256Digest.hex(Array(sql.utf8)) }
    /// A migration from its name and SQL.
    public init(name: String, sql: String) { self.name = name; self.sql = sql }
}
