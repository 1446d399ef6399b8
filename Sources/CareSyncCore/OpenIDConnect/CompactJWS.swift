import Foundation

/// A JWS in compact serialization (RFC 7515 §7.1): `header.payload.signature`, each base64url; header and payload
/// JSON objects. Nothing is verified here.
struct CompactJWS {
    /// The protected header.
    let header: [String: Any]
    /// The payload's claims.
    let payload: [String: Any]
    /// The signature bytes.
    let signature: [UInt8]
    /// The ASCII bytes the signature covers: `header.payload` as sent.
    let signingInput: [UInt8]

    /// Splits and decodes `token`; `malformed` for anything but three base64url parts with JSON-object header and payload.
    init(_ token: String) throws(IDTokenError) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("an ID token has three dot-separated parts") }
        guard let header = Self.object(parts[0]) else { throw .malformed("the header is not a base64url JSON object") }
        guard let payload = Self.object(parts[1]) else { throw .malformed("the payload is not a base64url JSON object") }
        guard let signature = Base64URL.decode(String(parts[2])) else { throw .malformed("the signature is not base64url") }
        self.header = header; self.payload = payload; self.signature = signature
        signingInput = Array("\(parts[0]).\(parts[1])".utf8)
    }

    private static func object(_ part: Substring) -> [String: Any]? {
        guard let bytes = Base64URL.decode(String(part)) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
    }
}
