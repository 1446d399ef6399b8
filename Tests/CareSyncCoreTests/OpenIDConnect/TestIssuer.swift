import CareSyncCore
import Crypto
import _CryptoExtras
import Foundation

/// A provider's signing key made in the test: its public JWK and compact JWS ID tokens signed with it.
struct TestIssuer: @unchecked Sendable {
    enum Key {
        case p256(P256.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
    }

    let key: Key
    let kid: String

    /// A new ES256 key.
    static func es256(kid: String = "es-1") -> TestIssuer { TestIssuer(key: .p256(P256.Signing.PrivateKey()), kid: kid) }

    /// One RSA 2048 key for every RS256 test (making one takes a while).
    static let rsaKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    /// Another RSA 2048 key.
    static let otherRSAKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)

    /// An RS256 issuer with `key`.
    static func rs256(kid: String = "rs-1", key: _RSA.Signing.PrivateKey = rsaKey) -> TestIssuer { TestIssuer(key: .rsa(key), kid: kid) }

    /// The public JWK, as a provider's JWKS lists it.
    var jwk: [String: String] {
        switch key {
        case .p256(let k):
            let raw = Array(k.publicKey.x963Representation.dropFirst())
            return ["kty": "EC", "crv": "P-256", "x": Base64URL.encode(Array(raw[0..<32])), "y": Base64URL.encode(Array(raw[32...])),
                    "kid": kid, "alg": "ES256", "use": "sig"]
        case .rsa(let k):
            let p = try! k.publicKey.getKeyPrimitives()
            return ["kty": "RSA", "n": Base64URL.encode(Array(p.modulus)), "e": Base64URL.encode(Array(p.publicExponent)),
                    "kid": kid, "alg": "RS256", "use": "sig"]
        }
    }

    /// The algorithm name.
    var alg: String { if case .p256 = key { "ES256" } else { "RS256" } }

    /// A JWKS of `issuers`' keys.
    static func jwks(_ issuers: [TestIssuer]) -> [UInt8] {
        Array(try! JSONSerialization.data(withJSONObject: ["keys": issuers.map(\.jwk)]))
    }

    /// A compact JWS of `claims` signed with this key; `header` overrides or adds header members.
    func sign(_ claims: [String: Any], header: [String: Any] = [:]) -> String {
        var fullHeader: [String: Any] = ["alg": alg, "typ": "JWT", "kid": kid]
        fullHeader.merge(header) { $1 }
        let input = Self.part(fullHeader) + "." + Self.part(claims)
        let signature: [UInt8]
        switch key {
        case .p256(let k): signature = Array(try! k.signature(for: Array(input.utf8)).rawRepresentation)
        case .rsa(let k): signature = Array(try! k.signature(for: Array(input.utf8), padding: .insecurePKCS1v1_5).rawRepresentation)
        }
        return input + "." + Base64URL.encode(signature)
    }

    /// base64url of a JSON object.
    static func part(_ object: [String: Any]) -> String {
        Base64URL.encode(Array(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])))
    }
}
