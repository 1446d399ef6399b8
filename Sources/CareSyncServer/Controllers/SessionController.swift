import CareSyncCore
import CareSyncHTTP
import Foundation
import HTTPTypes

/// Browser sessions: who am I, sign-out, and signing in by redeeming an invitation link.
struct SessionController: Sendable {
    let gate: AccessGate
    let calls: StoreCalls
    let clock: ServerClock

    /// The one `/v1` path the head filter lets through: the invitation is the credential.
    static let redeemPath = "/v1/invitations/redeem"

    /// Its endpoints.
    var routes: [APIRoute] {
        [
            APIRoute(.get, "/v1/session", getSession),
            APIRoute(.post, "/v1/session/sign-out", signOut),
            APIRoute(.post, Self.redeemPath, redeem),
        ]
    }

    /// GET /v1/session: the signed-in person, their session and its CSRF token (session callers only; 403 for tokens).
    func getSession(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.sessionScoped(request, context, action: "session.read") { principal, session in
            let credentials = Credentials(head: request.head, trusted: self.gate.trustedProxies)
            guard let person = principal.person, let secret = credentials.sessionSecret else { throw HTTPError.internal }
            return Response.json(["person": PeopleWire.encode(person),
                                  "session": PeopleWire.encode(session, current: true, idle: self.gate.people.policy.idleTimeout),
                                  "csrfToken": .string(SessionSecret.csrfToken(forSessionSecret: secret))])
        }
    }

    /// POST /v1/session/sign-out: ends the session server-side and clears the cookie → 204.
    func signOut(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.sessionScoped(request, context, action: "session.signOut") { _, session in
            let people = self.gate.people, now = self.clock.now()
            _ = try await self.calls.blocking { try people.store.endSession(id: session.id, at: now) }
            let https = Credentials(head: request.head, trusted: self.gate.trustedProxies).transport.https
            return Response(status: .noContent, headers: [.setCookie: SessionCookie.clearing(https: https)])
        }
    }

    /// POST /v1/invitations/redeem `{"secret"}`: redeems an invitation once and signs its person in → 201 with the
    /// session cookie. Wrong, used and expired secrets are the same 401; attempts are rate-limited per address.
    func redeem(_ request: Request, _ context: APIContext) async throws -> Response {
        let credentials = Credentials(head: request.head, trusted: gate.trustedProxies)
        let signIn = try await gate.signIn(credentials, action: "session.signIn.invitation") {
            let body = try request.jsonBody()
            guard let secret = body["secret"]?.stringValue else { throw HTTPError.invalidParameter("secret", "the invitation's secret string is required") }
            let people = self.gate.people, now = self.clock.now()
            return try await self.calls.blocking { try people.redeemInvitation(secret: secret, now: now) }
        }
        return Response.json(PeopleWire.encode(signIn, idle: gate.people.policy.idleTimeout), status: .created,
                             headers: [.setCookie: SessionCookie.setting(signIn.secret, https: credentials.transport.https)])
    }
}
