import CareSyncStoreCore

/// The store core's shared queries run on a libpq connection: `QueryValue`s bound as `PostgresValue`s.
extension PostgresConnection: QueryConnection {
    /// `$1`, `$2`, …
    public static func parameter(_ index: Int) -> String { "$\(index)" }

    /// Runs `sql` (prepared once per connection) and decodes each row.
    public func fetch<T>(_ sql: String, _ values: [QueryValue], _ decode: (PostgresRow) throws -> T) throws -> [T] {
        try query(sql, values.map(PostgresValue.init)).map(decode)
    }

    /// Runs `sql` for its effect: inside a transaction sent ahead (`send`, its errors thrown by the next awaited
    /// statement, at the latest the transaction's end), outside one at once.
    public func run(_ sql: String, _ values: [QueryValue]) throws {
        if isInTransaction { try send(sql, values.map(PostgresValue.init)) } else { _ = try query(sql, values.map(PostgresValue.init)) }
    }

    /// Runs `sql` for its effect; the rows its command tag reports.
    public func runCounting(_ sql: String, _ values: [QueryValue]) throws -> Int {
        try query(sql, values.map(PostgresValue.init)).affected
    }
}

/// A PostgreSQL row read by the shared queries.
extension PostgresRow: QueryRow {
    /// The text of `column`.
    public func text(_ column: Int) throws -> String { try string(column) }
    /// The `bigint` of `column`.
    public func integer(_ column: Int) throws -> Int64 { try int64(column) }
    /// The `bigint` of `column`, nil when NULL.
    public func optionalInteger(_ column: Int) throws -> Int64? { try optionalInt64(column) }
    /// The `double precision` of `column`.
    public func real(_ column: Int) throws -> Double { try double(column) }
    /// The text of `column`, nil when NULL.
    public func optionalText(_ column: Int) throws -> String? { try optionalString(column) }
    /// The `bytea` of `column`.
    public func blob(_ column: Int) throws -> [UInt8] { try bytes(column) }
    /// The `boolean` of `column`.
    public func flag(_ column: Int) throws -> Bool { try bool(column) }
}

extension PostgresValue {
    /// The PostgreSQL value of a shared query's parameter.
    init(_ value: QueryValue) {
        switch value {
        case .text(let text): self = .text(text)
        case .integer(let integer): self = .int64(integer)
        case .real(let real): self = .double(real)
        case .blob(let bytes): self = .bytes(bytes)
        case .null: self = .null
        }
    }
}
