import Foundation

/// A query parameter: typed values go in PostgreSQL's binary format, `.text` in text format (the server
/// infers its type from the context, so `$1::uuid` or a `date` column accept it as they would a literal).
public enum PostgresValue: Hashable, Sendable {
    /// SQL NULL (its type inferred from the context).
    case null
    /// `bigint`, binary.
    case int64(Int64)
    /// `double precision`, binary.
    case double(Double)
    /// Text format: any type the server can parse from this text.
    case text(String)
    /// `bytea`, binary.
    case bytes([UInt8])
    /// `boolean`, binary.
    case bool(Bool)
    /// `uuid`, binary (16 bytes).
    case uuid(UUID)
    /// A one-dimensional array, binary (`= ANY($1)`, `unnest($1, $2, …)`); make one with `array(_:)`.
    case array(PostgresArray)
}

extension PostgresValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByNilLiteral, ExpressibleByBooleanLiteral {
    /// `1` binds as a `bigint`.
    public init(integerLiteral value: Int64) { self = .int64(value) }
    /// `1.5` binds as a `double precision`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// `"x"` binds as text.
    public init(stringLiteral value: String) { self = .text(value) }
    /// `nil` binds as NULL.
    public init(nilLiteral: ()) { self = .null }
    /// `true` binds as a `boolean`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PostgresValue {
    /// An optional integer: NULL when nil.
    public static func int64(_ value: Int64?) -> PostgresValue { value.map { .int64($0) } ?? .null }
    /// An optional string: NULL when nil.
    public static func text(_ value: String?) -> PostgresValue { value.map { .text($0) } ?? .null }
    /// An optional float: NULL when nil.
    public static func double(_ value: Double?) -> PostgresValue { value.map { .double($0) } ?? .null }

    /// The type OID announced to the server (0: let it infer).
    var typeOID: UInt32 {
        switch self {
        case .null, .text: 0
        case .int64: PostgresType.int8
        case .double: PostgresType.float8
        case .bytes: PostgresType.bytea
        case .bool: PostgresType.bool
        case .uuid: PostgresType.uuid
        case .array(let a): a.typeOID
        }
    }

    /// 1 for binary, 0 for text.
    var format: Int32 {
        switch self {
        case .null, .text: 0
        default: 1
        }
    }

    /// Appends the wire bytes; text is NUL-terminated (libpq reads text parameters as C strings).
    func encode(into buffer: inout [UInt8]) {
        switch self {
        case .null: break
        case .int64(let v): withUnsafeBytes(of: v.bigEndian) { buffer.append(contentsOf: $0) }
        case .double(let v): withUnsafeBytes(of: v.bitPattern.bigEndian) { buffer.append(contentsOf: $0) }
        case .text(let s): buffer.append(contentsOf: s.utf8); buffer.append(0)
        case .bytes(let b): buffer.append(contentsOf: b)
        case .bool(let b): buffer.append(b ? 1 : 0)
        case .uuid(let u): withUnsafeBytes(of: u.uuid) { buffer.append(contentsOf: $0) }
        case .array(let a): a.encode(into: &buffer)
        }
    }
}

/// The built-in type OIDs the layer encodes and decodes (pg_type.oid; fixed since PostgreSQL 7).
enum PostgresType {
    static let bool: UInt32 = 16
    static let bytea: UInt32 = 17
    static let name: UInt32 = 19
    static let int8: UInt32 = 20
    static let int2: UInt32 = 21
    static let int4: UInt32 = 23
    static let text: UInt32 = 25
    static let oid: UInt32 = 26
    static let float4: UInt32 = 700
    static let float8: UInt32 = 701
    static let varchar: UInt32 = 1043
    static let uuid: UInt32 = 2950
    static let xid8: UInt32 = 5069
}
