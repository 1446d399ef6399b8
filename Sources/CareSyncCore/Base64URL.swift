/// base64url without padding (RFC 4648 §5): anchors, WebAuthn's JSON forms, JWS parts. Written byte by byte:
/// an anchor is decoded on every feed read and encoded on every write's answer.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The unpadded base64url text of `bytes`.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)]); out.append(alphabet[Int(n & 63)])
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)])
            if rest == 2 { out.append(alphabet[Int(n >> 6 & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of unpadded base64url `text` (trailing `=` tolerated), or nil for any other character, an
    /// impossible length, or leftover bits that are not zero (so each byte string has one encoding only).
    public static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { utf8 -> [UInt8]? in
            var end = utf8.count
            while end > 0, utf8[end - 1] == UInt8(ascii: "=") { end -= 1 }
            guard end % 4 != 1 else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(end * 3 / 4)
            var buffer: UInt32 = 0, bits: UInt32 = 0
            for index in 0..<end {
                guard let digit = value(of: utf8[index]) else { return nil }
                buffer = buffer << 6 | UInt32(digit)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    out.append(UInt8(truncatingIfNeeded: buffer >> bits))
                    buffer &= (1 << bits) - 1
                }
            }
            guard buffer == 0 else { return nil }
            return out
        }
    }

    /// Whether every byte of `text` is in the base64url alphabet (no padding).
    public static func isAlphabet(_ text: String) -> Bool {
        text.utf8.allSatisfy { value(of: $0) != nil }
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
