/// base64url without padding (RFC 4648 §5), as WebAuthn's JSON forms carry binary values.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The unpadded base64url text of `bytes`.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var group: UInt32 = 0
            for (i, byte) in chunk.enumerated() { group |= UInt32(byte) << (16 - 8 * i) }
            for i in 0...chunk.count { out.append(alphabet[Int(group >> (18 - 6 * i) & 0x3f)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of unpadded base64url `text` (trailing `=` tolerated), or nil for any other character, an
    /// impossible length, or leftover bits that are not zero (so each byte string has one encoding only).
    public static func decode(_ text: String) -> [UInt8]? {
        var digits: [UInt8] = []
        for char in text.utf8.reversed().drop(while: { $0 == UInt8(ascii: "=") }).reversed() {
            guard let value = value(of: char) else { return nil }
            digits.append(value)
        }
        guard digits.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count * 3 / 4)
        var buffer: UInt32 = 0, bits = 0
        for digit in digits {
            buffer = buffer << 6 | UInt32(digit)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        guard buffer & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return out
    }

    private static func value(of char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): char - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): char - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): char - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}

/// Comparisons whose time does not depend on where two secrets differ.
enum ConstantTime {
    /// Whether `a` and `b` are equal, looking at every byte whatever the first difference (lengths are not secret).
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
