import CareSyncStoreCore

/// The store core's shared queries run on a SQLite connection: `QueryValue`s bound as `SQLValue`s.
extension Connection: QueryConnection {
    /// `?`: SQLite numbers parameters in order.
    public static func parameter(_ index: Int) -> String { "?" }

    /// Runs `sql` (a cached statement) and decodes each row.
    public func fetch<T>(_ sql: String, _ values: [QueryValue], _ decode: (Statement) throws -> T) throws -> [T] {
        try fetchAll(sql, values.map(SQLValue.init), decode)
    }

    /// Runs `sql` for its effect.
    public func run(_ sql: String, _ values: [QueryValue]) throws {
        try execute(sql, values.map(SQLValue.init))
    }

    /// Runs `sql` for its effect; `sqlite3_changes` of that statement.
    public func runCounting(_ sql: String, _ values: [QueryValue]) throws -> Int {
        try execute(sql, values.map(SQLValue.init))
        return changes
    }
}

/// A SQLite row read by the shared queries.
extension Statement: QueryRow {
    /// The text of `column`.
    public func text(_ column: Int) -> String { string(Int32(column)) }
    /// The integer of `column`.
    public func integer(_ column: Int) -> Int64 { int64(Int32(column)) }
    /// The integer of `column`, nil when NULL.
    public func optionalInteger(_ column: Int) -> Int64? { optionalInt64(Int32(column)) }
    /// The float of `column`.
    public func real(_ column: Int) -> Double { double(Int32(column)) }
    /// The text of `column`, nil when NULL.
    public func optionalText(_ column: Int) -> String? { optionalString(Int32(column)) }
    /// The bytes of `column`.
    public func blob(_ column: Int) -> [UInt8] { bytes(Int32(column)) }
    /// An integer column as a boolean: nonzero is true.
    public func flag(_ column: Int) -> Bool { int64(Int32(column)) != 0 }
}

extension SQLValue {
    /// The SQLite value of a shared query's parameter.
    init(_ value: QueryValue) {
        switch value {
        case .text(let text): self = .text(text)
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .blob(let bytes): self = .blob(bytes)
        case .null: self = .null
        }
    }
}
