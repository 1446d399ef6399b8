import Crypto
import Foundation

/// Secrets of invitations and sessions: 256 random bits as base64url (43 characters), stored only as SHA-256, looked
/// up by that hash. Public ids (16 hex digits, 64 random bits) name the records in lists and audit instead.
public enum SessionSecret {
    /// A new secret.
    public static func generate() -> String { TokenSecret.base64url(TokenSecret.randomBytes(32)) }

    /// A new public id: 16 lowercase hex digits.
    public static func newID() -> String { TokenSecret.randomBytes(8).map { String($0, radix: 16).leftPadded(to: 2) }.joined() }

    /// SHA-256 of the secret.
    public static func hash(_ secret: String) -> [UInt8] { TokenSecret.hash(secret) }

    /// Whether `text` has the shape of a secret (43 base64url characters); anything else is refused before a lookup.
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 43 && text.utf8.allSatisfy { c in
            (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 45 || c == 95
        }
    }

    /// The CSRF token of the session whose cookie holds `secret`: derived one way (SHA-256 under its own label), so
    /// the page can hold it without holding the cookie's secret, and the server stores nothing more.
    public static func csrfToken(forSessionSecret secret: String) -> String {
        TokenSecret.base64url(Array(SHA256.hash(data: Array("caresync-csrf\u{0}\(secret)".utf8))))
    }

    /// Whether `presented` is the CSRF token of the session `secret`, compared in constant time.
    public static func isCSRFToken(_ presented: String?, forSessionSecret secret: String) -> Bool {
        guard let presented else { return false }
        return TokenSecret.constantTimeEquals(Array(presented.utf8), Array(csrfToken(forSessionSecret: secret).utf8))
    }
}
