import CareSyncCore
import CareSyncHTTP
import Crypto
import Foundation
import HTTPTypes
import CareSyncLocking

/// Sign-in with the clinic's OpenID Connect provider: authorization code with PKCE (S256), `state` and `nonce` kept
/// in the store every instance shares and bound to the browser by a short-lived cookie, the ID token verified against
/// the provider's JWKS, and (`iss`, `sub`) mapped to a person an admin linked, or linked now by accepting an
/// invitation. No person is ever made from an unknown identity.
struct OIDCController: Sendable {
    let gate: AccessGate
    let calls: StoreCalls
    let clock: ServerClock
    /// The provider; nil when `oidc.issuer` is not set (then both endpoints answer 404).
    let provider: OIDCProvider?
    /// Sign-ins in progress.
    let logins: OIDCLogins
    /// The first public origin (the default redirect URI's), or nil: the request's own.
    let linkOrigin: String?

    /// The path that begins a sign-in.
    static let startPath = "/v1/oidc/start"
    /// The redirect URI's path.
    static let callbackPath = "/v1/oidc/callback"
    /// The audit action of every callback, accepted or refused.
    static let action = "session.signIn.oidc"

    /// Its endpoints.
    var routes: [APIRoute] {
        [APIRoute(.get, Self.startPath, start), APIRoute(.post, Self.startPath, startWithInvitation),
         APIRoute(.get, Self.callbackPath, callback)]
    }

    /// GET /v1/oidc/start[?returnTo=/path] → 302 to the provider's authorization endpoint.
    func start(_ request: Request, _ context: APIContext) async throws -> Response {
        let provider = try requireProvider()
        try Self.refuseInvitationInURL(request)
        let credentials = Credentials(head: request.head, trusted: gate.trustedProxies)
        let begun = try await begin(credentials, provider: provider, invitation: nil, returnTo: request.query("returnTo"))
        return Response(status: .found, headers: [.location: begun.authorizationURL, .setCookie: begun.cookie])
    }

    /// POST /v1/oidc/start `{"invitation"?, "returnTo"?}`, as the web app's invitation page sends it → 200
    /// `{"authorizationUrl"}` for the page to navigate to, with the binding cookie. The invitation's secret travels in
    /// the body, never in a URL that access logs and browser histories keep. A browser's `Origin` must be an allowed
    /// one (403).
    func startWithInvitation(_ request: Request, _ context: APIContext) async throws -> Response {
        let provider = try requireProvider()
        try Self.refuseInvitationInURL(request)
        let credentials = Credentials(head: request.head, trusted: gate.trustedProxies)
        if credentials.origin != nil { try credentials.requireAllowedOrigin(gate.allowedOrigins) }
        let body = try request.jsonBody()
        guard case .object = body else { throw HTTPError.invalidParameter("body", "a JSON object") }
        var problems: [ValidationProblem] = []
        for field in ["invitation", "returnTo"] where body[field] != nil && body[field]?.stringValue == nil {
            problems.append(ValidationProblem(index: nil, field: field, message: "a string"))
        }
        guard problems.isEmpty else { throw HTTPError.validation(problems) }
        let begun = try await begin(credentials, provider: provider, invitation: body["invitation"]?.stringValue,
                                    returnTo: body["returnTo"]?.stringValue)
        return Response.json(["authorizationUrl": .string(begun.authorizationURL)], headers: [.setCookie: begun.cookie])
    }

    /// 422 for an invitation in the request's URL: its secret would stay in proxies' access logs.
    private static func refuseInvitationInURL(_ request: Request) throws {
        guard request.query("invitation") != nil else { return }
        throw HTTPError.invalidParameter("invitation", "an invitation's secret goes in the JSON body of a POST, never in the URL")
    }

    /// Keeps a new sign-in (accepting `invitation` when given): the provider's authorization URL to send the browser
    /// to, and the `Set-Cookie` value binding the sign-in to that browser.
    private func begin(_ credentials: Credentials, provider: OIDCProvider, invitation: String?,
                       returnTo: String?) async throws -> (authorizationURL: String, cookie: String) {
        guard credentials.transport.https || credentials.transport.isLoopback else {
            throw HTTPError.forbidden("Browser sessions need https (or plain http on loopback); configure trustedProxies behind a proxy.")
        }
        if let invitation, !SessionSecret.isWellFormed(invitation) {
            throw HTTPError.invalidParameter("invitation", "an invitation's secret is 43 base64url characters")
        }
        let returnPath = try Self.returnPath(returnTo)
        let redirectURI = provider.settings.redirectURI.isEmpty
            ? (linkOrigin ?? credentials.ownOrigin ?? "") + Self.callbackPath : provider.settings.redirectURI
        let metadata = try await provider.metadata()
        let binding = SessionSecret.generate(), state = SessionSecret.generate(), now = clock.now()
        let login = PendingLogin(nonce: SessionSecret.generate(), bindingHash: SessionSecret.hash(binding), redirectURI: redirectURI,
                                 invitationHash: invitation.map(SessionSecret.hash), returnPath: returnPath)
        let logins = self.logins
        try await calls.blocking { try logins.insert(login, state: state, now: now) }
        let query = FormEncoding.encode([
            ("response_type", "code"), ("client_id", provider.settings.clientID), ("redirect_uri", redirectURI),
            ("scope", provider.settings.scopes), ("state", state), ("nonce", login.nonce),
            ("code_challenge", PKCE.challenge(for: PKCE.verifier(binding: binding, state: state))), ("code_challenge_method", "S256"),
        ])
        let endpoint = metadata.authorizationEndpoint
        return (endpoint + (endpoint.contains("?") ? "&" : "?") + query,
                OIDCBindingCookie.setting(binding, https: credentials.transport.https, maxAge: Int(logins.lifetime)))
    }

    /// GET /v1/oidc/callback?code&state → 303 to the web app with a session cookie; every refusal is a 401 (400 for a
    /// malformed request), rate-limited per address, audited, with nothing stored.
    func callback(_ request: Request, _ context: APIContext) async throws -> Response {
        let provider = try requireProvider()
        let credentials = Credentials(head: request.head, trusted: gate.trustedProxies)
        let https = credentials.transport.https
        let returnPath = Locked("/")
        do {
            let signIn = try await gate.signIn(credentials, action: Self.action) {
                let (login, verifier) = try await self.takeLogin(request, https: https)
                returnPath.withLock { $0 = login.returnPath }
                guard let code = request.query("code"), !code.isEmpty else {
                    throw HTTPError.unauthorized("The provider's answer carries no authorization code.")
                }
                let idToken = try await provider.exchange(code: code, verifier: verifier, redirectURI: login.redirectURI)
                let claims = try await provider.verify(idToken, nonce: login.nonce)
                return try await self.startSession(claims, invitationHash: login.invitationHash)
            }
            var headers = HTTPFields()
            headers[.location] = returnPath.withLock { $0 }
            headers.append(HTTPField(name: .setCookie, value: SessionCookie.setting(signIn.secret, https: https)))
            headers.append(HTTPField(name: .setCookie, value: OIDCBindingCookie.clearing(https: https)))
            return Response(status: .seeOther, headers: headers)
        } catch {
            let status = (error as? HTTPError)?.status.code ?? 500
            try? await gate.audit.commit(AuditRecord(time: clock.now(), tokenID: "-", role: .therapist, patient: nil, action: Self.action,
                                                     count: 0, status: status))
            // The binding cookie stays: a forged callback (another state) must not end the browser's real sign-in.
            throw error
        }
    }

    /// The sign-in the callback's `state` names, taken once, from the browser that began it, and its PKCE verifier;
    /// 401 otherwise.
    private func takeLogin(_ request: Request, https: Bool) async throws -> (PendingLogin, verifier: String) {
        guard let state = request.query("state"), !state.isEmpty else { throw HTTPError.unauthorized("The provider's answer carries no state.") }
        let logins = self.logins, now = clock.now()
        guard let login = try await calls.blocking({ try logins.take(state: state, now: now) }) else {
            throw HTTPError.unauthorized("This sign-in's state is unknown, used already or expired; start the sign-in again.")
        }
        let cookie = request.head.headers[values: .cookie].joined(separator: "; ")
        guard let binding = OIDCBindingCookie.value(in: cookie, https: https),
              TokenSecret.constantTimeEquals(SessionSecret.hash(binding), login.bindingHash) else {
            throw HTTPError.unauthorized("This sign-in was started in another browser (its cookie is missing); start it again here.")
        }
        if let error = request.query("error") {
            let allowed = error.prefix(64).filter { $0.isLetter || $0 == "_" }
            throw HTTPError.unauthorized("The provider refused the sign-in (\(allowed)).")
        }
        return (login, PKCE.verifier(binding: binding, state: state))
    }

    /// The session of the person (`iss`, `sub`) names, or of the invitation's person, linking the identity to them.
    private func startSession(_ claims: IDTokenClaims, invitationHash: [UInt8]?) async throws -> SignIn {
        let people = gate.people, now = clock.now()
        return try await calls.blocking {
            if let invitationHash {
                let person: PersonRecord?
                do {
                    person = try people.store.redeemInvitation(secretHash: invitationHash, newPersonID: SessionSecret.newID(),
                                                               linking: claims.issuer, subject: claims.subject, now: now)
                } catch AccessStoreError.alreadyExists {
                    throw HTTPError.unauthorized("This provider identity is linked to a person already; sign in without the invitation.")
                }
                guard let person else { throw HTTPError.unauthorized("The invitation is invalid, expired or already used.") }
                return try people.startSession(for: person, now: now)
            }
            guard let identity = try people.store.identity(issuer: claims.issuer, subject: claims.subject),
                  let person = try people.store.person(id: identity.personID) else {
                throw HTTPError.unauthorized("No CareSync person is linked to this provider identity; ask an admin to link it or to invite you.")
            }
            return try people.startSession(for: person, now: now)
        }
    }

    private func requireProvider() throws -> OIDCProvider {
        guard let provider else { throw HTTPError.notFound("OpenID Connect sign-in is not configured on this server.") }
        return provider
    }

    /// The web app path to continue at: `returnTo` when it is a same-origin path (`/…`, not `//…` or `/\…`), else 400.
    static func returnPath(_ returnTo: String?) throws -> String {
        guard let returnTo else { return "/" }
        guard returnTo.hasPrefix("/"), !returnTo.hasPrefix("//"), !returnTo.hasPrefix("/\\"), returnTo.utf8.count <= 512,
              returnTo.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f && $0 != "\\" }) else {
            throw HTTPError.invalidParameter("returnTo", "a path on this server starting with a single /")
        }
        return returnTo
    }
}
