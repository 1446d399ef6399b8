import CareSyncCore
import CareSyncHTTP
import Foundation

extension AccessGate {
    /// Authenticates a caller signed in with a session (403 for a bearer token), runs `body` with its session and
    /// commits an audit record of `action` before the answer leaves.
    func sessionScoped(_ request: Request, _ context: APIContext, action: String,
                       _ body: @escaping @Sendable (Principal, SessionRecord) async throws -> Response) async throws -> Response {
        let principal = try await authenticate(request, context)
        return try await audited(principal, action: action) {
            guard let session = principal.session else { throw HTTPError.forbidden("This endpoint needs a browser session, not a token.") }
            return try await body(principal, session)
        }
    }

    /// Authenticates an admin, or the person `personId` names themself (others get 404), runs `body` and audits it.
    func personScoped(_ request: Request, _ context: APIContext, action: String,
                      _ body: @escaping @Sendable (Principal, String) async throws -> Response) async throws -> Response {
        let principal = try await authenticate(request, context)
        return try await audited(principal, action: action) {
            let personID = try context.parameter("personId")
            guard principal.role == .admin || principal.person?.id == personID else { throw HTTPError.notFound("No such person.") }
            return try await body(principal, personID)
        }
    }

    /// Runs `body` for `principal` and commits its audit record (status answered; 0 items on failure) before answering.
    func audited(_ principal: Principal, action: String, _ body: @Sendable () async throws -> Response) async throws -> Response {
        let scope = AuditScope(principal: principal, patient: nil, action: action)
        let reply: Response
        do {
            reply = try await body()
        } catch {
            try? await audit.commit(scope.record(count: 0, status: (error as? HTTPError)?.status.code ?? 500, time: clock.now()))
            throw error
        }
        try await audit.commit(scope.record(count: 1, status: reply.status.code, time: clock.now()))
        return reply
    }

    /// A sign-in by any method: checks the request may get a cookie (https, or http from loopback) and comes from an
    /// allowed origin if it names one, spends a failure from its address's budget (and `account`'s, when the method
    /// knows it) before `attempt` and gives it back on success, and audits the new session as its person's.
    func signIn(_ credentials: Credentials, account: String? = nil, action: String,
                _ attempt: @Sendable () async throws -> SignIn) async throws -> SignIn {
        guard credentials.transport.https || credentials.transport.isLoopback else {
            throw HTTPError.forbidden("Browser sessions need https (or plain http on loopback); configure trustedProxies behind a proxy.")
        }
        if credentials.origin != nil { try credentials.requireAllowedOrigin(allowedOrigins) }
        let address = credentials.transport.address
        if let seconds = failedAuthBudget.spend(address) ?? account.flatMap({ accountBudget.spend($0) }) {
            metrics.rateLimited(reason: "failedSignIn")
            throw HTTPError.tooManyRequests("Too many failed sign-ins; retry later.", retryAfter: seconds)
        }
        let signIn: SignIn
        do {
            signIn = try await attempt()
        } catch let error as HTTPError where error.status == .unauthorized {
            throw error
        } catch {
            failedAuthBudget.refund(address)
            if let account { accountBudget.refund(account) }
            throw error
        }
        failedAuthBudget.refund(address)
        if let account { accountBudget.refund(account) }
        let principal = Principal(person: signIn.person, session: signIn.session)
        try await audit.commit(AuditScope(principal: principal, patient: nil, action: action).record(count: 1, status: 201, time: clock.now()))
        return signIn
    }
}
