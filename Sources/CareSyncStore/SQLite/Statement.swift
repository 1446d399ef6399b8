import CSQLite
import Foundation

/// A prepared statement: owns its `sqlite3_stmt` and finalizes it in `deinit`.
///
/// Not `Sendable`, on purpose: a statement belongs to one connection, and a connection is used by one
/// thread at a time (inside `Database.write` or `Database.read`). Sharing it across threads would race.
/// Parameter and column indexes follow SQLite: parameters start at 1, columns at 0.
public final class Statement {
    /// The SQL this statement was prepared from.
    public let sql: String
    let handle: OpaquePointer
    private let connection: OpaquePointer

    init(connection: OpaquePointer, sql: String) throws {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw DatabaseError(handle: connection, resultCode: rc, sql: sql)
        }
        self.sql = sql; self.handle = stmt; self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    // MARK: Binding

    /// Clears bindings and rewinds, ready to run again.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds an integer (nil binds NULL) to parameter `index` (1-based).
    public func bind(_ value: Int64?, at index: Int32) throws {
        try check(value.map { sqlite3_bind_int64(handle, index, $0) } ?? sqlite3_bind_null(handle, index))
    }

    /// Binds an `Int` (nil binds NULL).
    public func bind(_ value: Int?, at index: Int32) throws { try bind(value.map(Int64.init), at: index) }

    /// Binds a double (nil binds NULL).
    public func bind(_ value: Double?, at index: Int32) throws {
        try check(value.map { sqlite3_bind_double(handle, index, $0) } ?? sqlite3_bind_null(handle, index))
    }

    /// Binds a string as TEXT (nil binds NULL).
    public func bind(_ value: String?, at index: Int32) throws {
        guard let value else { return try check(sqlite3_bind_null(handle, index)) }
        guard !value.isEmpty else { return try check(sqlite3_bind_text(handle, index, "", 0, caresync_sqlite_transient())) }
        // By byte count, not up to a NUL: "alice\0junk" must never bind as "alice".
        var text = value
        let rc = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), caresync_sqlite_transient()) }
        }
        try check(rc)
    }

    /// Binds bytes as a BLOB (nil binds NULL).
    public func bind(_ value: [UInt8]?, at index: Int32) throws {
        guard let value else { return try check(sqlite3_bind_null(handle, index)) }
        let rc = value.withUnsafeBytes { buffer in
            sqlite3_bind_blob(handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
                              caresync_sqlite_transient())
        }
        try check(rc)
    }

    /// Binds a `UUID` as its 16 bytes (nil binds NULL).
    public func bind(_ value: UUID?, at index: Int32) throws {
        try bind(value.map { withUnsafeBytes(of: $0.uuid) { Array($0) } }, at: index)
    }

    /// Binds one `SQLValue`.
    public func bind(_ value: SQLValue, at index: Int32) throws {
        switch value {
        case .null: try check(sqlite3_bind_null(handle, index))
        case .integer(let v): try bind(v, at: index)
        case .real(let v): try bind(v, at: index)
        case .text(let v): try bind(v, at: index)
        case .blob(let v): try bind(v, at: index)
        }
    }

    /// Resets, then binds `values` to parameters 1, 2, ….
    public func bind(_ values: [SQLValue]) throws {
        reset()
        for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
    }

    // MARK: Running

    /// Runs one step: true when a row is ready to read, false when done.
    @discardableResult
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = DatabaseError(handle: connection, resultCode: rc, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Binds `values` (when given), runs to completion, and rewinds.
    public func execute(_ values: [SQLValue]? = nil) throws {
        if let values { try bind(values) }
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Binds `values`, calls `row` for every result row (read columns on this statement), then rewinds.
    public func forEachRow(_ values: [SQLValue]? = nil, _ row: (Statement) throws -> Void) throws {
        if let values { try bind(values) }
        defer { sqlite3_reset(handle) }
        while try step() { try row(self) }
    }

    /// Binds `values` and maps every row.
    public func map<T>(_ values: [SQLValue]? = nil, _ transform: (Statement) throws -> T) throws -> [T] {
        var result: [T] = []
        try forEachRow(values) { result.append(try transform($0)) }
        return result
    }

    /// Binds `values` and maps the first row, or returns nil when there is none.
    public func first<T>(_ values: [SQLValue]? = nil, _ transform: (Statement) throws -> T) throws -> T? {
        if let values { try bind(values) }
        defer { sqlite3_reset(handle) }
        return try step() ? try transform(self) : nil
    }

    // MARK: Columns

    /// The number of result columns.
    public var columnCount: Int32 { sqlite3_column_count(handle) }
    /// Whether column `index` (0-based) is NULL in the current row.
    public func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }
    /// Column `index` as an integer (NULL reads 0).
    public func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }
    /// Column `index` as an integer, nil when NULL.
    public func optionalInt64(_ index: Int32) -> Int64? { isNull(index) ? nil : int64(index) }
    /// Column `index` as a double (NULL reads 0).
    public func double(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }
    /// Column `index` as a double, nil when NULL.
    public func optionalDouble(_ index: Int32) -> Double? { isNull(index) ? nil : double(index) }
    /// Column `index` as text (NULL reads "").
    public func string(_ index: Int32) -> String {
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, index))), as: UTF8.self)
    }
    /// Column `index` as text, nil when NULL.
    public func optionalString(_ index: Int32) -> String? { isNull(index) ? nil : string(index) }
    /// Column `index`'s text as bytes, borrowed for `body` (valid until the next step); nil when NULL.
    public func withText<R>(_ index: Int32, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        guard let text = sqlite3_column_text(handle, index) else { return nil }
        return try body(UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, index))))
    }
    /// Column `index` as bytes (NULL reads empty).
    public func bytes(_ index: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let pointer = sqlite3_column_blob(handle, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
    /// Column `index` as a UUID stored as 16 bytes; nil when NULL or not 16 bytes.
    public func uuid(_ index: Int32) -> UUID? {
        guard sqlite3_column_bytes(handle, index) == 16, let p = sqlite3_column_blob(handle, index) else { return nil }
        let b = p.assumingMemoryBound(to: UInt8.self)
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                           b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
    /// Column `index` as an `SQLValue` of its storage class.
    public func value(_ index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: .integer(int64(index))
        case SQLITE_FLOAT: .real(double(index))
        case SQLITE_TEXT: .text(string(index))
        case SQLITE_BLOB: .blob(bytes(index))
        default: .null
        }
    }

    private func check(_ rc: Int32) throws {
        guard rc == SQLITE_OK else { throw DatabaseError(handle: connection, resultCode: rc, sql: sql) }
    }
}

/// Statements stay on the thread that uses their connection; see the type's documentation.
@available(*, unavailable)
extension Statement: Sendable {}
