import Foundation

/// The parts of `clientDataJSON` (WebAuthn §5.8.1) the server checks. The raw bytes are kept: the signature covers
/// their SHA-256, never a re-serialization.
public struct CollectedClientData: Hashable, Sendable {
    /// `webauthn.create` or `webauthn.get`.
    public let type: String
    /// The challenge, decoded from base64url.
    public let challenge: [UInt8]
    /// The origin of the page that ran the ceremony, e.g. `https://care.clinic.example`.
    public let origin: String
    /// Whether the ceremony ran in a cross-origin frame (absent means false).
    public let crossOrigin: Bool
    /// The bytes as received.
    public let raw: [UInt8]

    private struct Fields: Decodable {
        let type: String
        let challenge: String
        let origin: String
        let crossOrigin: Bool?
    }

    /// Parses `raw` (UTF-8 JSON); refuses a missing or mistyped member and a challenge that is not base64url.
    public init(parsing raw: [UInt8]) throws(PasskeyError) {
        let fields: Fields
        do { fields = try JSONDecoder().decode(Fields.self, from: Data(raw)) } catch {
            throw .malformed("clientDataJSON is not a JSON object with type, challenge and origin")
        }
        guard let challenge = Base64URL.decode(fields.challenge) else { throw .malformed("clientDataJSON.challenge is not base64url") }
        self.type = fields.type
        self.challenge = challenge
        self.origin = fields.origin
        self.crossOrigin = fields.crossOrigin ?? false
        self.raw = raw
    }
}
