/// Why an ID token (or the JSON web keys it is checked with) was refused: each case is one check of OpenID Connect
/// Core 1.0 §3.1.3.7, in the order the verifier makes them. `code` is a stable name for problems and audit.
public enum IDTokenError: Error, Hashable, Sendable {
    /// Not three base64url parts, or a header or payload that is not a JSON object.
    case malformed(String)
    /// `alg` is not RS256 or ES256 (`none` and the HMAC family are always refused).
    case unsupportedAlgorithm(String)
    /// No key of the provider's JWKS has this `kid` (and algorithm): the caller refetches the set once, then refuses.
    case unknownKey(String?)
    /// The signature does not verify with the key the header names.
    case badSignature
    /// `iss` is not the configured issuer, exactly.
    case wrongIssuer
    /// `aud` does not contain the client id, or several audiences without `azp` equal to it.
    case wrongAudience
    /// `exp` is missing or passed (beyond the allowed clock skew).
    case expired
    /// `iat` is missing or lies in the future beyond the allowed clock skew.
    case issuedInFuture
    /// `nonce` is missing or not the one this sign-in sent.
    case wrongNonce
    /// `sub` is missing or empty.
    case missingSubject
    /// A JSON web key that is not a usable RS256 or ES256 public key.
    case invalidKey(String)

    /// A stable camelCase name of the refusal.
    public var code: String {
        switch self {
        case .malformed: "malformed"
        case .unsupportedAlgorithm: "unsupportedAlgorithm"
        case .unknownKey: "unknownKey"
        case .badSignature: "badSignature"
        case .wrongIssuer: "wrongIssuer"
        case .wrongAudience: "wrongAudience"
        case .expired: "expired"
        case .issuedInFuture: "issuedInFuture"
        case .wrongNonce: "wrongNonce"
        case .missingSubject: "missingSubject"
        case .invalidKey: "invalidKey"
        }
    }
}
