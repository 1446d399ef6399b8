import CareSyncJSON
import Foundation

/// Sample metadata as the stores keep it: JSON text of an object of string, number and boolean values,
/// keys sorted; nil (SQL NULL) when empty. Both stores read and write this one form.
public enum MetadataCoding {
    private enum Value: Decodable {
        case string(String), number(Double), bool(Bool)
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let b = try? c.decode(Bool.self) { self = .bool(b) }
            else if let d = try? c.decode(Double.self) { self = .number(d) }
            else { self = .string(try c.decode(String.self)) }
        }
    }

    /// The JSON text of `metadata`, written directly (it is on every sample insert); nil when empty.
    public static func encode(_ metadata: [String: MetadataValue]) throws -> String? {
        guard !metadata.isEmpty else { return nil }
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (i, key) in metadata.keys.sorted().enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
            switch metadata[key]! {
            case .string(let s): writeString(s, into: &out)
            case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
            case .number(let d):
                guard d.isFinite else { throw NonFiniteNumber(key: key) }
                if d == d.rounded(), abs(d) < 9_007_199_254_740_992 { out.append(contentsOf: String(Int64(d)).utf8) }
                else { out.append(contentsOf: "\(d)".utf8) }
            }
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// A metadata number JSON cannot carry (infinity, NaN); validation refuses these before the store.
    public struct NonFiniteNumber: Error, Equatable {
        /// The key whose number is not finite.
        public let key: String
        /// The error for `key`.
        public init(key: String) { self.key = key }
    }

    /// A JSON string literal, escaped by `JSONString` (the one escaper).
    static func writeString(_ s: String, into out: inout [UInt8]) {
        JSONString.write(s, into: &out)
    }

    /// The metadata of stored JSON text (nil or empty: none). The stored form is read by a small parser of its
    /// own (every sample of every feed page passes here); anything it does not expect goes to `JSONDecoder`.
    public static func decode(_ text: String?) throws -> [String: MetadataValue] {
        guard var text, !text.isEmpty else { return [:] }
        if let parsed = text.withUTF8({ bytes in
            var parser = FlatObjectParser(bytes: bytes)
            return parser.parse()
        }) { return parsed }
        let values = try JSONDecoder().decode([String: Value].self, from: Data(text.utf8))
        return values.mapValues { value in
            switch value {
            case .string(let s): .string(s)
            case .number(let d): .number(d)
            case .bool(let b): .bool(b)
            }
        }
    }
}

/// Parses one JSON object whose values are strings, numbers or booleans; nil for anything else (the caller falls back).
struct FlatObjectParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func parse() -> [String: MetadataValue]? {
        var result: [String: MetadataValue] = [:]
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        skipSpace()
        if take(UInt8(ascii: "}")) { return end() ? result : nil }
        while true {
            skipSpace()
            guard let key = string() else { return nil }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            guard index < bytes.count, result[key] == nil else { return nil }  // a duplicate key: the decoder decides
            switch bytes[index] {
            case UInt8(ascii: "\""):
                guard let s = string() else { return nil }
                result[key] = .string(s)
            case UInt8(ascii: "t"):
                guard literal("true") else { return nil }
                result[key] = .bool(true)
            case UInt8(ascii: "f"):
                guard literal("false") else { return nil }
                result[key] = .bool(false)
            default:
                guard let d = number() else { return nil }
                result[key] = .number(d)
            }
            skipSpace()
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "}")) else { return nil }
            return end() ? result : nil
        }
    }

    mutating func end() -> Bool { skipSpace(); return index == bytes.count }

    mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for i in 0..<count where bytes[index + i] != word.utf8Start[i] { return false }
        index += count
        return true
    }

    /// A string without escapes, the common case, as one slice; escapes other than `\"` and `\\`: nil.
    mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        var out: [UInt8] = []
        var start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                out.append(contentsOf: bytes[start..<index])
                index += 1
                return String(decoding: out, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                guard index + 1 < bytes.count else { return nil }
                let escaped = bytes[index + 1]
                guard escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\") || escaped == UInt8(ascii: "/") else { return nil }
                out.append(contentsOf: bytes[start..<index])
                out.append(escaped)
                index += 2
                start = index
                continue
            }
            guard byte >= 0x20 else { return nil }
            index += 1
        }
        return nil
    }

    /// A JSON number (RFC 8259 grammar) as a Double.
    mutating func number() -> Double? {
        let start = index
        if take(UInt8(ascii: "-")) {}
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "0") { index += 1 } else { guard digits() else { return nil } }
        if take(UInt8(ascii: ".")) { guard digits() else { return nil } }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() else { return nil }
        }
        return Double(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    mutating func digits() -> Bool {
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        return index > start
    }
}
