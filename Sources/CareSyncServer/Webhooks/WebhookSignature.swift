import Crypto
import Foundation

/// Standard Webhooks signing: secrets are `whsec_<base64>`; a delivery carries `webhook-id`, `webhook-timestamp`
/// (unix seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body" keyed with the decoded secret>`.
enum WebhookSignature {
    /// The secret prefix.
    static let prefix = "whsec_"

    /// A new secret: 32 random bytes from the system CSPRNG, base64.
    static func generateSecret() -> String {
        prefix + Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64EncodedString()
    }

    /// The `webhook-signature` value for a message; nil for a secret that is not `whsec_<base64>`.
    static func sign(secret: String, id: String, timestamp: Int64, body: [UInt8]) -> String? {
        guard let key = key(of: secret) else { return nil }
        var message = Array("\(id).\(timestamp).".utf8)
        message += body
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))
        return "v1," + Data(mac).base64EncodedString()
    }

    /// The key bytes of a secret (the prefix is optional, as the reference libraries accept; padding may be left out).
    static func key(of secret: String) -> [UInt8]? {
        var text = secret.hasPrefix(prefix) ? String(secret.dropFirst(prefix.count)) : secret
        text += String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: text), !data.isEmpty else { return nil }
        return Array(data)
    }
}
