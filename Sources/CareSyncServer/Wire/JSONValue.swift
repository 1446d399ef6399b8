import CareSyncHTTP
import Foundation

/// A JSON document as a value: what request bodies decode into before field-by-field validation,
/// and what responses are built from before serialization.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    /// An integer beyond ±2^53, which a `Double` cannot hold exactly; the parser gives `.number` for every other.
    case integer(Int64)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The members of an object, or nil.
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o }; return nil }
    /// The elements of an array, or nil.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    /// The string, or nil.
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    /// The number, or nil.
    public var numberValue: Double? {
        switch self {
        case .number(let n): n
        case .integer(let v): Double(v)
        default: nil
        }
    }
    /// The number when it is an exact integer in Int64's range, or nil.
    public var integerValue: Int64? {
        switch self {
        case .number(let n): n == n.rounded() && abs(n) <= 9_007_199_254_740_992 ? Int64(n) : nil
        case .integer(let v): v
        default: nil
        }
    }
    /// The boolean, or nil.
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }

    /// Member lookup on an object; nil for other kinds or a missing key.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }

    /// A JSON name for the kind of value, used in validation messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number, .integer: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue {
    /// Parses a UTF-8 JSON body; throws `HTTPError.invalidJSON` when it is not JSON.
    public static func parse(_ bytes: [UInt8]) throws(HTTPError) -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw HTTPError.invalidJSON(error.message)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// A string, or null when nil.
    public static func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
    /// A number, or null when nil.
    public static func optional(_ n: Double?) -> JSONValue { n.map(JSONValue.number) ?? .null }
    /// An integer, or null when nil.
    public static func optional(_ n: Int64?) -> JSONValue { n.map(exactly) ?? .null }
    /// An integer, exact over Int64's whole range: `.number` up to ±2^53, `.integer` beyond.
    public static func exactly(_ n: Int64) -> JSONValue { n.magnitude <= 9_007_199_254_740_992 ? .number(Double(n)) : .integer(n) }
}
