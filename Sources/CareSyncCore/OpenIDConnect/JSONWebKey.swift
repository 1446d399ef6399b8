import Crypto
import _CryptoExtras
import Foundation

/// A provider's signing key from its JSON web key (RFC 7517, RFC 7518 §6): an EC key on P-256 for ES256, or an RSA
/// key of 2048 bits or more for RS256. Anything else is refused. Not `Sendable` (swift-crypto's keys are not): the
/// `JSONWebKeySet` keeps the JSON and makes keys where they are used.
public struct JSONWebKey {
    /// The JWS algorithms CareSync accepts.
    public enum Algorithm: String, Sendable, CaseIterable {
        /// ECDSA with P-256 and SHA-256; the signature is r ‖ s, 32 bytes each (RFC 7518 §3.4).
        case es256 = "ES256"
        /// RSASSA-PKCS1-v1_5 with SHA-256.
        case rs256 = "RS256"
    }

    private enum Key {
        case p256(P256.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)
    }

    /// The algorithm the key verifies.
    public let algorithm: Algorithm
    private let key: Key

    /// Decodes and validates one key object of a JWKS (`kty`, `crv`, `x`, `y` or `n`, `e`; `alg` when present must fit).
    public init(_ jwk: [String: Any]) throws(IDTokenError) {
        let kty = jwk["kty"] as? String
        let declared = jwk["alg"] as? String
        switch kty {
        case "EC":
            guard declared == nil || declared == "ES256" else { throw .invalidKey("an EC key declares alg \(declared ?? "")") }
            guard jwk["crv"] as? String == "P-256" else { throw .invalidKey("an EC key must be on P-256") }
            guard let x = (jwk["x"] as? String).flatMap(Base64URL.decode), let y = (jwk["y"] as? String).flatMap(Base64URL.decode),
                  x.count == 32, y.count == 32 else { throw .invalidKey("a P-256 key needs 32-byte x and y") }
            do { key = .p256(try P256.Signing.PublicKey(x963Representation: [0x04] + x + y)) } catch {
                throw .invalidKey("the point is not on P-256")
            }
            algorithm = .es256
        case "RSA":
            guard declared == nil || declared == "RS256" else { throw .invalidKey("an RSA key declares alg \(declared ?? "")") }
            guard let n = (jwk["n"] as? String).flatMap(Base64URL.decode), let e = (jwk["e"] as? String).flatMap(Base64URL.decode),
                  !n.isEmpty, !e.isEmpty else { throw .invalidKey("an RSA key needs n and e") }
            let rsa: _RSA.Signing.PublicKey
            do { rsa = try _RSA.Signing.PublicKey(n: n, e: e) } catch { throw .invalidKey("n and e are no RSA public key") }
            guard rsa.keySizeInBits >= 2048 else { throw .invalidKey("the RSA modulus is shorter than 2048 bits") }
            key = .rsa(rsa)
            algorithm = .rs256
        default:
            throw .invalidKey("kty \(kty ?? "(none)") is neither EC nor RSA")
        }
    }

    /// Whether `signature` (JWS form: raw r ‖ s for ES256, PKCS#1 v1.5 for RS256) signs `message` with this key.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        switch key {
        case .p256(let key):
            guard signature.count == 64, let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: message)
        case .rsa(let key):
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: message,
                                        padding: .insecurePKCS1v1_5)
        }
    }
}
