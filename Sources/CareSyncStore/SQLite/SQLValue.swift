/// A value bound to or read from SQLite: one of its five storage classes.
public enum SQLValue: Hashable, Sendable {
    /// SQL NULL.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A 64-bit float.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])
}

extension SQLValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByNilLiteral, ExpressibleByBooleanLiteral {
    /// `1` binds as an INTEGER.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// `1.5` binds as a REAL.
    public init(floatLiteral value: Double) { self = .real(value) }
    /// `"x"` binds as TEXT.
    public init(stringLiteral value: String) { self = .text(value) }
    /// `nil` binds as NULL.
    public init(nilLiteral: ()) { self = .null }
    /// `true` binds as INTEGER 1.
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension SQLValue {
    /// An optional integer: NULL when nil.
    public static func integer(_ value: Int64?) -> SQLValue { value.map { .integer($0) } ?? .null }
    /// An optional string: NULL when nil.
    public static func text(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
}
