import CareSyncHTTP
import Foundation

/// A JSON document as a value: what request bodies decode into before field-by-field validation,
/// and what responses are built from before serialization.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
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
    public var numberValue: Double? { if case .number(let n) = self { return n }; return nil }
    /// The boolean, or nil.
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }

    /// Member lookup on an object; nil for other kinds or a missing key.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }

    /// A JSON name for the kind of value, used in validation messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
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

    /// Serializes compactly; object keys are sorted so output is deterministic.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        JSONValue.write(self, into: &out)
        return out
    }

    static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): writeNumber(n, into: &out)
        case .string(let s): writeString(s, into: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, v) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(v, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            for (i, key) in o.keys.sorted().enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(o[key]!, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeNumber(_ n: Double, into out: inout [UInt8]) {
        guard n.isFinite else { out.append(contentsOf: "null".utf8); return }
        if n == n.rounded(), abs(n) < 1e15 {
            writeInteger(Int64(n), into: &out)
        } else {
            out.append(contentsOf: n.description.utf8)
        }
    }

    /// Appends the decimal digits of `value` without building a string.
    static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var reversed: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                       UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &reversed) { digits in
            repeat {
                digits[count] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for i in stride(from: count - 1, through: 0, by: -1) { out.append(digits[i]) }
        }
    }

    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // The common case, nothing to escape: the bytes at once.
        if let copied = s.utf8.withContiguousStorageIfAvailable({ bytes -> Bool in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            out.append(contentsOf: bytes)
            return true
        }), copied {
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): out.append(contentsOf: [92, 92])
            case 0x0A: out.append(contentsOf: [92, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [92, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
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
    public static func optional(_ n: Int64?) -> JSONValue { n.map { .number(Double($0)) } ?? .null }
}
