import Foundation

/// What an ID token must show to sign someone in: OpenID Connect Core 1.0 §3.1.3.7, as a list. The token is a compact
/// JWS (RFC 7515) signed with RS256 or ES256 by a key of the provider's JWKS; `none` and HMAC are refused before any
/// key is looked at (an HMAC "verified" with a public key is the classic algorithm confusion).
public struct IDTokenVerifier: Sendable {
    /// The issuer, compared exactly (no trailing-slash or case folding).
    public var issuer: String
    /// This client's id: `aud` must contain it; with several audiences, `azp` must be it.
    public var clientID: String
    /// How far the provider's clock may be off ours, both ways, in seconds.
    public var allowedSkew: TimeInterval

    /// A verifier for tokens of `issuer` to `clientID`, allowing `allowedSkew` seconds of clock difference.
    public init(issuer: String, clientID: String, allowedSkew: TimeInterval = 60) {
        self.issuer = issuer; self.clientID = clientID; self.allowedSkew = allowedSkew
    }

    /// The claims of `token` once every check passes, for the sign-in that sent `nonce`, at `now`.
    public func verify(_ token: String, keys: JSONWebKeySet, nonce: String, now: Date) throws(IDTokenError) -> IDTokenClaims {
        let jws = try CompactJWS(token)
        let algorithm = try Self.algorithm(jws.header)
        guard let key = keys.key(kid: jws.header["kid"] as? String, algorithm: algorithm) else {
            throw .unknownKey(jws.header["kid"] as? String)
        }
        guard key.isValidSignature(jws.signature, for: jws.signingInput) else { throw .badSignature }
        let claims = jws.payload
        guard let iss = claims["iss"] as? String, iss == issuer else { throw .wrongIssuer }
        try checkAudience(claims)
        guard let exp = Self.number(claims["exp"]), now.timeIntervalSince1970 < exp + allowedSkew else { throw .expired }
        guard let iat = Self.number(claims["iat"]), iat <= now.timeIntervalSince1970 + allowedSkew else { throw .issuedInFuture }
        guard let sent = claims["nonce"] as? String, ConstantTime.equal(Array(sent.utf8), Array(nonce.utf8)) else { throw .wrongNonce }
        guard let sub = claims["sub"] as? String, !sub.isEmpty, sub.utf8.count <= 255 else { throw .missingSubject }
        return IDTokenClaims(issuer: iss, subject: sub, name: claims["name"] as? String, email: claims["email"] as? String,
                             issuedAt: Date(timeIntervalSince1970: iat), expiresAt: Date(timeIntervalSince1970: exp))
    }

    /// The header's algorithm when it is one CareSync verifies; a `crit` header is refused (no extension is understood).
    static func algorithm(_ header: [String: Any]) throws(IDTokenError) -> JSONWebKey.Algorithm {
        let alg = header["alg"] as? String ?? "(none)"
        guard let algorithm = JSONWebKey.Algorithm(rawValue: alg), header["crit"] == nil else { throw .unsupportedAlgorithm(alg) }
        return algorithm
    }

    /// `aud` (a string or an array of strings) contains the client id; `azp`, when present or needed, is the client id.
    func checkAudience(_ claims: [String: Any]) throws(IDTokenError) {
        let audiences: [String]
        if let one = claims["aud"] as? String { audiences = [one] } else if let many = claims["aud"] as? [String] { audiences = many } else {
            throw .wrongAudience
        }
        guard audiences.contains(clientID) else { throw .wrongAudience }
        let azp = claims["azp"] as? String
        if audiences.count > 1 || azp != nil { guard azp == clientID else { throw .wrongAudience } }
    }

    /// A JSON number's value in seconds (NumericDate, RFC 7519 §2), or nil for anything else.
    static func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, number.doubleValue.isFinite else { return nil }
        return number.doubleValue
    }
}

/// The claims of a verified ID token CareSync uses: (`iss`, `sub`) names the provider identity.
public struct IDTokenClaims: Sendable, Hashable {
    /// `iss`.
    public var issuer: String
    /// `sub`: the provider's stable, opaque id of the person.
    public var subject: String
    /// `name`, when the provider sends it.
    public var name: String?
    /// `email`, when the provider sends it (never used to match a person: only `iss` + `sub` are).
    public var email: String?
    /// `iat`.
    public var issuedAt: Date
    /// `exp`.
    public var expiresAt: Date
}
