import CLibPQ
import Foundation

/// The rows of one query result, in PostgreSQL's binary format; frees the result in `deinit`.
///
/// Not `Sendable`: it owns a `PGresult`. Read it inside the closure that ran the query.
public final class PostgresRows {
    private let result: OpaquePointer
    /// How many rows.
    public let count: Int
    /// Rows the command changed (`INSERT`, `UPDATE`, `DELETE`), 0 for other commands.
    public let affected: Int

    init(result: OpaquePointer) {
        self.result = result
        count = Int(PQntuples(result))
        affected = Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    deinit { PQclear(result) }

    /// The row at `index` (0-based).
    public subscript(index: Int) -> PostgresRow { PostgresRow(rows: self, index: Int32(index)) }

    /// Every row, decoded by `decode`.
    public func map<T>(_ decode: (PostgresRow) throws -> T) rethrows -> [T] {
        var values: [T] = []
        values.reserveCapacity(count)
        for index in 0..<count { values.append(try decode(self[index])) }
        return values
    }

    /// The first row decoded, or nil when there is none.
    public func first<T>(_ decode: (PostgresRow) throws -> T) rethrows -> T? {
        count == 0 ? nil : try decode(self[0])
    }

    fileprivate func field(_ row: Int32, _ column: Int) -> (type: UInt32, bytes: UnsafeRawBufferPointer)? {
        let column = Int32(column)
        guard PQgetisnull(result, row, column) == 0 else { return nil }
        let length = Int(PQgetlength(result, row, column))
        let pointer = UnsafeRawPointer(PQgetvalue(result, row, column)!)
        return (PQftype(result, column), UnsafeRawBufferPointer(start: pointer, count: length))
    }
}

/// One row of `PostgresRows`; columns are 0-based. A column of an unexpected type throws.
public struct PostgresRow {
    fileprivate let rows: PostgresRows
    fileprivate let index: Int32

    /// Whether the column is NULL.
    public func isNull(_ column: Int) -> Bool { rows.field(index, column) == nil }

    /// A `bigint`, `integer`, `smallint`, `oid` or `xid8` column.
    public func int64(_ column: Int) throws -> Int64 {
        try optionalInt64(column) ?? { throw Self.null(column) }()
    }

    /// An integer column, nil when NULL.
    public func optionalInt64(_ column: Int) throws -> Int64? {
        guard let (type, bytes) = rows.field(index, column) else { return nil }
        switch (type, bytes.count) {
        case (PostgresType.int8, 8), (PostgresType.xid8, 8): return Int64(bitPattern: Self.bigEndian(bytes, as: UInt64.self))
        case (PostgresType.int4, 4): return Int64(Int32(bitPattern: Self.bigEndian(bytes, as: UInt32.self)))
        case (PostgresType.oid, 4): return Int64(Self.bigEndian(bytes, as: UInt32.self))
        case (PostgresType.int2, 2): return Int64(Int16(bitPattern: Self.bigEndian(bytes, as: UInt16.self)))
        default: throw Self.mismatch(column, type, "an integer")
        }
    }

    /// A `double precision` or `real` column.
    public func double(_ column: Int) throws -> Double {
        guard let (type, bytes) = rows.field(index, column) else { throw Self.null(column) }
        switch (type, bytes.count) {
        case (PostgresType.float8, 8): return Double(bitPattern: Self.bigEndian(bytes, as: UInt64.self))
        case (PostgresType.float4, 4): return Double(Float(bitPattern: Self.bigEndian(bytes, as: UInt32.self)))
        default: throw Self.mismatch(column, type, "a float")
        }
    }

    /// A `text`, `varchar` or `name` column.
    public func string(_ column: Int) throws -> String {
        try optionalString(column) ?? { throw Self.null(column) }()
    }

    /// A text column, nil when NULL.
    public func optionalString(_ column: Int) throws -> String? {
        try withText(column) { String(decoding: $0, as: UTF8.self) }
    }

    /// A text column's bytes, borrowed for `body` (valid while the rows are); nil when NULL.
    public func withText<R>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        guard let (type, bytes) = rows.field(index, column) else { return nil }
        guard [PostgresType.text, PostgresType.varchar, PostgresType.name].contains(type) else {
            throw Self.mismatch(column, type, "text")
        }
        return try body(bytes)
    }

    /// A `bytea` column.
    public func bytes(_ column: Int) throws -> [UInt8] {
        guard let (type, bytes) = rows.field(index, column) else { throw Self.null(column) }
        guard type == PostgresType.bytea else { throw Self.mismatch(column, type, "bytea") }
        return Array(bytes)
    }

    /// A `boolean` column.
    public func bool(_ column: Int) throws -> Bool {
        guard let (type, bytes) = rows.field(index, column) else { throw Self.null(column) }
        guard type == PostgresType.bool, bytes.count == 1 else { throw Self.mismatch(column, type, "boolean") }
        return bytes[0] != 0
    }

    /// A `uuid` column.
    public func uuid(_ column: Int) throws -> UUID {
        guard let (type, bytes) = rows.field(index, column) else { throw Self.null(column) }
        guard type == PostgresType.uuid, bytes.count == 16 else { throw Self.mismatch(column, type, "uuid") }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)  // not `UUID().uuid`: that reads /dev/urandom
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: bytes) }
        return UUID(uuid: value)
    }

    private static func bigEndian<T: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer, as: T.Type) -> T {
        T(bigEndian: bytes.loadUnaligned(as: T.self))
    }

    private static func null(_ column: Int) -> PostgresError {
        PostgresError(kind: .other, message: "column \(column) is NULL where a value was expected")
    }

    private static func mismatch(_ column: Int, _ type: UInt32, _ expected: String) -> PostgresError {
        PostgresError(kind: .other, message: "column \(column) has type oid \(type), not \(expected)")
    }
}
