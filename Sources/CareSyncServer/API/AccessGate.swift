import CareSyncCore
import CareSyncHTTP
import Foundation

/// What every handler passes before it reads or writes: authentication (with its rate limits), reach to the
/// patient or the admin role, and the audit record committed before the answer leaves.
struct AccessGate: Sendable {
    let authenticator: Authenticator
    let audit: AuditLog
    let calls: StoreCalls
    let clock: @Sendable () -> Date
    let metrics: ServerMetrics
    /// Each token's request budget.
    let tokenBudget: RateLimiter
    /// Each client address's budget of failed authentications.
    let failedAuthBudget: RateLimiter

    /// The failed-authentication key of a request whose client address is not known.
    static let unknownAddress = "unknown"

    /// The caller of a request's `Authorization` header, or 401; 429 when the caller's address has failed
    /// authentication too often or the token is over its budget.
    ///
    /// Every attempt reserves one failure from its address's budget before the token is looked at, and a
    /// success gives it back: concurrent bad tokens cannot all pass a check made before any of them is
    /// charged. A request without a known address shares one budget with every other such request.
    func authenticate(authorization: String?, peer: String? = nil) async throws -> Principal {
        let address = peer.map(PeerAddress.host(of:)) ?? Self.unknownAddress
        if let seconds = failedAuthBudget.spend(address) {
            metrics.rateLimited(reason: "failedAuth")
            throw HTTPError.tooManyRequests("Too many failed authentications from this address; retry later.", retryAfter: seconds)
        }
        let now = clock()
        let authenticator = self.authenticator
        let principal: Principal
        do {
            principal = try await calls.blocking { try authenticator.authenticate(authorization: authorization, now: now) }
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
        return try await authenticate(authorization: request.header("Authorization"), peer: request.remoteAddress)
    }
}
