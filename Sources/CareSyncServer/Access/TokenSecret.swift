import Crypto
import Foundation

/// Token strings: `cs_<id>_<secret>`, a 64-bit public id (16 hex digits) and a 256-bit random secret (base64url).
///
/// Only SHA-256 of the whole string is stored; a presented token is found by its id and its hash
/// compared in constant time, so neither timing nor a database leak yields a usable token.
public enum TokenSecret {
    /// A new token string and its id.
    public static func generate() -> (id: String, token: String) {
        let id = randomBytes(8).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        let secret = base64url(randomBytes(32))
        return (id, "cs_\(id)_\(secret)")
    }

    /// The id part of a well-formed token string, or nil when it is malformed.
    public static func id(of token: String) -> String? {
        // The base64url alphabet contains "_" too, so split on the fixed prefix and id length.
        guard token.hasPrefix("cs_"), token.utf8.count == 3 + 16 + 1 + 43 else { return nil }
        let chars = Array(token.utf8)
        guard chars[19] == UInt8(ascii: "_"), chars[3..<19].allSatisfy(isHexDigit), chars[20...].allSatisfy(isTokenChar) else { return nil }
        return String(decoding: chars[3..<19], as: UTF8.self)
    }

    /// SHA-256 of the token string.
    public static func hash(_ token: String) -> [UInt8] { Array(SHA256.hash(data: Array(token.utf8))) }

    /// Compares two byte strings in time that depends only on their length.
    public static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<a.count { diff |= a[i] ^ b[i] }
        return diff == 0
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        // SymmetricKey draws from the system CSPRNG.
        let key = SymmetricKey(size: SymmetricKeySize(bitCount: count * 8))
        return key.withUnsafeBytes { Array($0) }
    }

    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    private static func isHexDigit(_ c: UInt8) -> Bool { (c >= 48 && c <= 57) || (c >= 97 && c <= 102) }

    private static func isTokenChar(_ c: UInt8) -> Bool {
        (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 45 || c == 95
    }
}

extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
