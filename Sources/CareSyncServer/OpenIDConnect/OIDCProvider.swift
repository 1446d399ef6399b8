import CareSyncCore
import CareSyncHTTP
import Foundation
import CareSyncLocking

/// The clinic's OpenID Connect provider as CareSync uses it: its discovery document (the issuer must match exactly),
/// its JWKS (cached; fetched again once when a token names an unknown `kid`, at most once per `keyRefetchInterval`),
/// the code exchange at its token endpoint, and the ID token checked by `IDTokenVerifier`.
final class OIDCProvider: Sendable {
    /// The endpoints of a provider's discovery document CareSync uses.
    struct Metadata: Sendable, Hashable {
        var authorizationEndpoint: String
        var tokenEndpoint: String
        var jwksURI: String
    }

    private struct Cache {
        var metadata: Metadata?
        var metadataFetchedAt: Date?
        var keys: JSONWebKeySet?
        var keysFetchedAt: Date?
    }

    /// The configured issuer, client and scopes.
    let settings: OpenIDConnectSettings
    /// The client secret (confidential client), or nil (public client).
    let clientSecret: String?
    private let transport: any OIDCTransport
    private let clock: ServerClock
    /// The shortest time between two JWKS fetches caused by unknown `kid`s.
    let keyRefetchInterval: TimeInterval
    /// How long a discovery document is used before it is read again.
    let metadataLifetime: TimeInterval = 24 * 3600
    private let cache = Locked(Cache())

    /// A provider client over `transport`.
    init(settings: OpenIDConnectSettings, clientSecret: String?, transport: any OIDCTransport = CurlOIDCTransport(),
         clock: ServerClock, keyRefetchInterval: TimeInterval = 60) {
        self.settings = settings; self.clientSecret = clientSecret; self.transport = transport; self.clock = clock
        self.keyRefetchInterval = keyRefetchInterval
    }

    /// The verifier of this provider's ID tokens to this client.
    var verifier: IDTokenVerifier {
        IDTokenVerifier(issuer: settings.issuer, clientID: settings.clientID, allowedSkew: TimeInterval(settings.clockSkewSeconds))
    }

    /// The discovery document's endpoints (cached for `metadataLifetime`); 503 when it cannot be read or does not fit.
    func metadata() async throws -> Metadata {
        let now = clock.now()
        if let cached = cache.withLock({ c in c.metadataFetchedAt.map { now.timeIntervalSince($0) < metadataLifetime } == true ? c.metadata : nil }) {
            return cached
        }
        let base = settings.issuer.hasSuffix("/") ? String(settings.issuer.dropLast()) : settings.issuer
        let object = try await document(base + "/.well-known/openid-configuration", what: "discovery document")
        guard object["issuer"] as? String == settings.issuer else {
            throw Self.unavailable("its discovery document names another issuer than oidc.issuer (they must match exactly)")
        }
        func endpoint(_ name: String) throws -> String {
            guard let url = object[name] as? String, OpenIDConnectSettings.isProviderURL(url) || Self.isHTTPSWithQuery(url) else {
                throw Self.unavailable("its discovery document has no usable \(name)")
            }
            return url
        }
        let metadata = Metadata(authorizationEndpoint: try endpoint("authorization_endpoint"), tokenEndpoint: try endpoint("token_endpoint"),
                                jwksURI: try endpoint("jwks_uri"))
        cache.withLock { $0.metadata = metadata; $0.metadataFetchedAt = now }
        return metadata
    }

    /// Exchanges an authorization code for the ID token (the PKCE `verifier` proves this server asked for it); 401 when
    /// the provider refuses (a used or wrong code, a wrong verifier or client secret), 503 when it cannot be reached.
    func exchange(code: String, verifier: String, redirectURI: String) async throws -> String {
        let metadata = try await metadata()
        var form = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("code_verifier", verifier)]
        var headers: [(String, String)] = []
        if let clientSecret {   // client_secret_basic: both parts form-encoded first (RFC 6749 §2.3.1)
            let pair = FormEncoding.escape(settings.clientID) + ":" + FormEncoding.escape(clientSecret)
            headers.append(("Authorization", "Basic " + Data(pair.utf8).base64EncodedString()))
        } else {
            form.append(("client_id", settings.clientID))
        }
        let answer = await transport.postForm(metadata.tokenEndpoint, form: form, headers: headers)
        guard let status = answer.status else { throw Self.unavailable("its token endpoint cannot be reached (\(answer.error ?? "no answer"))") }
        let object = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any]
        guard status == 200 else {
            let reason = (object?["error"] as? String).map { " (\($0))" } ?? ""
            throw HTTPError.unauthorized("The provider refused the authorization code\(reason): it is used, expired or not this sign-in's.")
        }
        guard let idToken = object?["id_token"] as? String else {
            throw HTTPError.unauthorized("The provider's token answer carries no ID token (is the openid scope granted?).")
        }
        return idToken
    }

    /// The claims of `idToken` for the sign-in that sent `nonce`; an unknown `kid` fetches the JWKS again once (key
    /// rotation), unless it was fetched for that reason less than `keyRefetchInterval` ago. 401 for a refused token.
    func verify(_ idToken: String, nonce: String) async throws -> IDTokenClaims {
        let verifier = self.verifier
        let keys = try await currentKeys(refresh: false)
        do throws(IDTokenError) {
            return try verifier.verify(idToken, keys: keys, nonce: nonce, now: clock.now())
        } catch {
            guard case .unknownKey = error, refetchAllowed() else { throw Self.refused(error) }
        }
        let fresh = try await currentKeys(refresh: true)
        do throws(IDTokenError) {
            return try verifier.verify(idToken, keys: fresh, nonce: nonce, now: clock.now())
        } catch {
            throw Self.refused(error)
        }
    }

    /// The cached JWKS, or a freshly fetched one.
    private func currentKeys(refresh: Bool) async throws -> JSONWebKeySet {
        if !refresh, let keys = cache.withLock({ $0.keys }) { return keys }
        let metadata = try await metadata()
        let answer = await transport.get(metadata.jwksURI)
        guard answer.status == 200 else { throw Self.unavailable("its JWKS cannot be read (\(answer.status.map { "HTTP \($0)" } ?? answer.error ?? "no answer"))") }
        let keys: JSONWebKeySet
        do { keys = try JSONWebKeySet(json: answer.body) } catch { throw Self.unavailable("its JWKS holds no usable key") }
        let now = clock.now()
        cache.withLock { $0.keys = keys; $0.keysFetchedAt = now }
        return keys
    }

    /// Whether the JWKS may be fetched again for an unknown `kid` now (and notes that it will be).
    private func refetchAllowed() -> Bool {
        let now = clock.now()
        return cache.withLock { c in
            if let last = c.keysFetchedAt, now.timeIntervalSince(last) < keyRefetchInterval { return false }
            c.keysFetchedAt = now
            return true
        }
    }

    /// A JSON object from `url`; 503 otherwise.
    private func document(_ url: String, what: String) async throws -> [String: Any] {
        let answer = await transport.get(url)
        guard answer.status == 200, let object = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any] else {
            throw Self.unavailable("its \(what) cannot be read (\(answer.status.map { "HTTP \($0)" } ?? answer.error ?? "no answer"))")
        }
        return object
    }

    /// An https URL that may carry a query (some providers' endpoints do).
    private static func isHTTPSWithQuery(_ url: String) -> Bool {
        guard let parsed = URL(string: url) else { return false }
        return parsed.scheme?.lowercased() == "https" && parsed.host?.isEmpty == false && parsed.fragment == nil
    }

    /// 503 naming what is wrong with the provider.
    static func unavailable(_ what: String) -> HTTPError {
        HTTPError.unavailable("OpenID Connect sign-in is unavailable: the provider's \(what.hasPrefix("its ") ? String(what.dropFirst(4)) : what).")
    }

    /// 401 naming the check the ID token failed.
    static func refused(_ error: IDTokenError) -> HTTPError {
        HTTPError.unauthorized("The provider's ID token is refused (\(error.code)): \(Self.explain(error))")
    }

    private static func explain(_ error: IDTokenError) -> String {
        switch error {
        case .malformed(let why): why + "."
        case .unsupportedAlgorithm(let alg): "its algorithm \(alg) is not RS256 or ES256."
        case .unknownKey: "no key of the provider's JWKS has its kid."
        case .badSignature: "its signature does not verify with the provider's key."
        case .wrongIssuer: "iss is not the configured issuer."
        case .wrongAudience: "aud (or azp) is not this client."
        case .expired: "it has expired."
        case .issuedInFuture: "iat lies in the future beyond the allowed clock skew."
        case .wrongNonce: "its nonce is not this sign-in's."
        case .missingSubject: "it names no subject."
        case .invalidKey(let why): why + "."
        }
    }
}
