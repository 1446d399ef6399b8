import Crypto

/// Proof Key for Code Exchange (RFC 7636) with the S256 method: the verifier stays on the server, the challenge goes
/// to the authorization endpoint, and only the holder of the verifier can redeem the code.
public enum PKCE {
    /// A new code verifier: 256 random bits as 43 base64url characters (RFC 7636 §4.1 allows 43–128).
    public static func makeVerifier() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The S256 challenge of `verifier`: base64url(SHA-256(ASCII(verifier))) (RFC 7636 §4.2).
    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Array(verifier.utf8))))
    }
}
