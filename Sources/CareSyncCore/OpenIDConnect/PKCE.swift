import Crypto

/// Proof Key for Code Exchange (RFC 7636) with the S256 method: the challenge goes to the authorization endpoint, and
/// only the holder of the verifier can redeem the code. The server stores no verifier: it derives it from the secret
/// of the browser's binding cookie and the sign-in's `state`, so only the callback the browser brings can redeem.
public enum PKCE {
    /// The verifier of the sign-in `state` whose browser holds `binding`: base64url(HMAC-SHA-256(binding, label ‖ state)),
    /// 43 characters (RFC 7636 §4.1 allows 43–128 of its alphabet).
    public static func verifier(binding: String, state: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array("caresync oidc pkce verifier \(state)".utf8),
                                                  using: SymmetricKey(data: Array(binding.utf8)))
        return Base64URL.encode(Array(mac))
    }

    /// The S256 challenge of `verifier`: base64url(SHA-256(ASCII(verifier))) (RFC 7636 §4.2).
    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array(verifier.utf8))))
    }
}
