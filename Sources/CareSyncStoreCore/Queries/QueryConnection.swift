/// A value the shared queries bind; each dialect maps it to its own (SQLite `SQLValue`, PostgreSQL `PostgresValue`).
public enum QueryValue: Sendable, Hashable {
    /// Text.
    case text(String)
    /// A 64-bit integer.
    case integer(Int64)
    /// A 64-bit float.
    case real(Double)
    /// Bytes.
    case blob([UInt8])
    /// NULL.
    case null
}

/// One result row, read by 0-based column.
public protocol QueryRow: SendableMetatype {
    /// The text of `column`.
    func text(_ column: Int) throws -> String
    /// The integer of `column`.
    func integer(_ column: Int) throws -> Int64
    /// The integer of `column`, nil when NULL.
    func optionalInteger(_ column: Int) throws -> Int64?
    /// The float of `column`.
    func real(_ column: Int) throws -> Double
    /// The text of `column`, nil when NULL.
    func optionalText(_ column: Int) throws -> String?
    /// The bytes of `column`.
    func blob(_ column: Int) throws -> [UInt8]
    /// The boolean of `column` (SQLite: an integer, nonzero is true; PostgreSQL: `boolean`).
    func flag(_ column: Int) throws -> Bool
}

/// A connection the shared queries run on; the SQL text they pass is the dialect's own (`ReportSQL`, …).
public protocol QueryConnection: AnyObject, SendableMetatype {
    /// A row of this connection's results.
    associatedtype Row: QueryRow
    /// The marker of the `index`th parameter (1-based) in this dialect's SQL: `?` on SQLite, `$1` on PostgreSQL.
    static func parameter(_ index: Int) -> String
    /// Runs `sql` with `values` bound in order and decodes each row.
    func fetch<T>(_ sql: String, _ values: [QueryValue], _ decode: (Row) throws -> T) throws -> [T]
    /// Runs `sql` with `values` bound in order, for its effect.
    func run(_ sql: String, _ values: [QueryValue]) throws
    /// Runs `sql` (an INSERT, UPDATE or DELETE) with `values` bound in order; returns how many rows it changed.
    func runCounting(_ sql: String, _ values: [QueryValue]) throws -> Int
}

extension QueryConnection {
    /// The first decoded row, or nil when there is none.
    public func fetchFirst<T>(_ sql: String, _ values: [QueryValue], _ decode: (Row) throws -> T) throws -> T? {
        try fetch(sql, values, decode).first
    }
}
