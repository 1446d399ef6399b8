import CareSyncJSON
import Foundation

/// The one JSON writer of the server's answers: compact, object keys sorted, into a `ByteBuffer`.
extension JSONValue {
    /// Serializes compactly; object keys are sorted so output is deterministic.
    public func serialized() -> [UInt8] {
        var out = ByteBuffer(capacity: 256)
        JSONValue.write(self, into: &out)
        return out.bytes()
    }

    static func write(_ value: JSONValue, into out: inout ByteBuffer) {
        switch value {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .number(let n): writeNumber(n, into: &out)
        case .integer(let v): writeInteger(v, into: &out)
        case .string(let s): writeString(s, into: &out)
        case .array(let a):
            out.append("[")
            for (i, v) in a.enumerated() {
                if i > 0 { out.append(",") }
                write(v, into: &out)
            }
            out.append("]")
        case .object(let o):
            out.append("{")
            for (i, key) in o.keys.sorted().enumerated() {
                if i > 0 { out.append(",") }
                writeString(key, into: &out)
                out.append(":")
                write(o[key]!, into: &out)
            }
            out.append("}")
        }
    }

    /// A number: integral values below 10^15 as integers, others as Swift prints them, non-finite as null.
    static func writeNumber(_ n: Double, into out: inout ByteBuffer) {
        guard n.isFinite else { out.append("null"); return }
        if n == n.rounded(), abs(n) < 1e15 {
            writeInteger(Int64(n), into: &out)
        } else {
            var text = n.description
            text.withUTF8 { out.append(UnsafeRawBufferPointer($0)) }
        }
    }

    /// Appends the decimal digits of `value` without building a string.
    static func writeInteger(_ value: Int64, into out: inout ByteBuffer) {
        out.reserve(20)
        if value < 0 { out.appendUnchecked(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var reversed: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &reversed) { digits in
            repeat {
                digits[count] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for i in stride(from: count - 1, through: 0, by: -1) { out.appendUnchecked(digits[i]) }
        }
    }

    /// A string literal, escaped by `JSONString` (the one escaper: control characters, `"`, `\`, DEL, U+2028/2029).
    @inline(__always) static func writeString(_ s: String, into out: inout ByteBuffer) {
        JSONString.write(s, into: &out)
    }

    /// The uuid's text as `UUID.uuidString` writes it (upper-case hex, 8-4-4-4-12), without building a string.
    static func writeUUIDString(_ uuid: UUID, into out: inout ByteBuffer) {
        out.reserve(36)
        withUnsafeBytes(of: uuid.uuid) { bytes in
            for (i, byte) in bytes.enumerated() {
                if i == 4 || i == 6 || i == 8 || i == 10 { out.appendUnchecked(UInt8(ascii: "-")) }
                out.appendUnchecked(upperHexDigit(byte >> 4))
                out.appendUnchecked(upperHexDigit(byte & 15))
            }
        }
    }

    @inline(__always) private static func upperHexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") - 10 + nibble
    }

}

/// The API's byte buffer takes `JSONString`'s output directly.
extension ByteBuffer: JSONOutput {}
