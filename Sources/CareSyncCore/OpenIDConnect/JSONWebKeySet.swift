import Foundation

/// A provider's JWKS (`jwks_uri`), kept as validated JSON so it can be shared across threads: the signing keys by
/// `kid`. Keys for encryption (`use: enc`) and of types CareSync cannot verify with are left out, not refused, since
/// a provider may publish them beside its signing keys.
public struct JSONWebKeySet: Sendable {
    /// Each usable signing key's JSON, by `kid` (`""` for a key without one).
    private let keys: [String: [String: String]]

    /// The set in a JWKS document; `invalidKey` when it is not `{"keys": [...]}` or holds no usable signing key.
    public init(json: [UInt8]) throws(IDTokenError) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
              let list = object["keys"] as? [[String: Any]] else { throw .invalidKey("the JWKS is not {\"keys\": [...]}") }
        var keys: [String: [String: String]] = [:]
        for jwk in list where (jwk["use"] as? String ?? "sig") == "sig" {
            guard (try? JSONWebKey(jwk)) != nil else { continue }
            keys[jwk["kid"] as? String ?? ""] = jwk.compactMapValues { $0 as? String }
        }
        guard !keys.isEmpty else { throw .invalidKey("the JWKS holds no ES256 or RS256 signing key") }
        self.keys = keys
    }

    /// The key named `kid` (without one: the only key, if there is exactly one) for `algorithm`; nil when absent.
    public func key(kid: String?, algorithm: JSONWebKey.Algorithm) -> JSONWebKey? {
        let json: [String: String]?
        if let kid { json = keys[kid] } else { json = keys.count == 1 ? keys.values.first : nil }
        guard let json, let key = try? JSONWebKey(json), key.algorithm == algorithm else { return nil }
        return key
    }

    /// The `kid`s of the set (for logs and tests).
    public var kids: [String] { keys.keys.sorted() }
}
