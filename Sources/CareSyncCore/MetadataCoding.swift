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

    /// A JSON string literal: quote, backslash and control characters escaped, everything else as UTF-8.
    static func writeString(_ s: String, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0..<0x20: out.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The metadata of stored JSON text (nil or empty: none).
    public static func decode(_ text: String?) throws -> [String: MetadataValue] {
        guard let text, !text.isEmpty else { return [:] }
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
