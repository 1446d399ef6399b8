import CareSyncCore
import CareSyncHTTP
import Foundation

/// What every handler passes before it reads or writes: authentication (with its rate limits), reach to the
/// patient or the admin role, and the audit record committed before the answer leaves.
struct AccessGate: Sendable {
    let authenticator: Authenticator
    let audit: AuditLog
    let calls: StoreCalls
    let clock: ServerClock
    let metrics: ServerMetrics
    /// Each token's request budget.
    let tokenBudget: RateLimiter
    /// Each client address's budget of failed authentications (invitation redemptions and sign-ins count too).
    let failedAuthBudget: RateLimiter
    /// Each account's budget of failed sign-ins (the sign-in methods key it by person or credential).
    let accountBudget: RateLimiter
    /// People, invitations and sessions.
    let people: People
    /// The proxies whose `X-Forwarded-*` headers are believed.
    let trustedProxies: [AddressRange]
    /// The origins (`scheme://host[:port]`) a cookie-authenticated unsafe request may come from; empty: its own.
    let allowedOrigins: [String]

    /// The failed-authentication key of a request whose client address is not known.
    static let unknownAddress = "unknown"

    /// The caller of a request's `Authorization` header, or 401; 429 when the caller's address has failed
    /// authentication too often or the token is over its budget.
    ///
    /// Every attempt reserves one failure from its address's budget before the token is looked at, and a
    /// success gives it back: concurrent bad tokens cannot all pass a check made before any of them is
    /// charged. A request without a known address shares one budget with every other such request.
    func authenticate(authorization: String?, peer: String? = nil) async throws -> Principal {
        try await authenticate(Credentials(authorization: authorization, peer: peer))
    }

    /// The caller presenting `credentials` (a bearer token, else a session cookie), or 401; 403 for a
    /// cookie-authenticated unsafe request from another origin or without its CSRF token; 429 as above.
    func authenticate(_ credentials: Credentials) async throws -> Principal {
        try credentials.requireSameSite(allowedOrigins)
        let address = credentials.transport.address
        if let seconds = failedAuthBudget.spend(address) {
            metrics.rateLimited(reason: "failedAuth")
            throw HTTPError.tooManyRequests("Too many failed authentications from this address; retry later.", retryAfter: seconds)
        }
        let now = clock.now()
        let authenticator = self.authenticator
        let principal: Principal
        do {
            principal = try await calls.blocking { try authenticator.authenticate(credentials, now: now) }
        } catch let error as HTTPError where error.status == .unauthorized {
            throw error
        } catch {
            failedAuthBudget.refund(address)
            throw error
        }
        failedAuthBudget.refund(address)
        if let seconds = tokenBudget.spend(principal.tokenID) {
            metrics.rateLimited(reason: "token")
            throw HTTPError.tooManyRequests("This token is over its request budget; retry later.", retryAfter: seconds)
        }
        return principal
    }

    /// The caller of a request, or 401 (or 429, as above).
    func authenticate(_ request: Request, _ context: APIContext) async throws -> Principal {
        if let known = context.principal { return known }
        return try await authenticate(Credentials(head: request.head, trusted: trustedProxies))
    }
}
