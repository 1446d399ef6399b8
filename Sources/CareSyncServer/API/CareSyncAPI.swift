import CareSyncHTTP
import Crypto
import Foundation
import Logging
import CareSyncCore

/// The API of api.md as request → reply functions over a sync store and an access store.
/// The socket layer routes to the handlers listed in `routes`; tests can call them directly.
public final class CareSyncAPI: Sendable {
    let store: any SyncStore
    let access: any AccessStore
    let webhooks: any WebhookStore
    /// Tells the webhook dispatcher that a subscription changed (created, resumed, replayed), so it looks at once.
    let onWebhookChange: @Sendable () -> Void
    let authenticator: Authenticator
    let admin: AccessAdmin
    let audit: AuditLog
    let executor: BlockingExecutor
    let limits: APILimits
    /// Seals the anchors answers carry and opens the ones clients send (under the store's anchor key).
    let anchors: AnchorWire
    let clock: @Sendable () -> Date
    let logger: Logger
    let readiness: @Sendable () -> Bool
    /// Prometheus metrics of this server.
    public let metrics: ServerMetrics
    /// Feed reads shared by long polls woken by the same commit.
    let sharedReads = SharedReads()
    /// The open event streams.
    let streams = EventStreams()
    /// Each token's long polls and event streams waiting now.
    let tokenWaits: TokenWaits
    /// Each token's request budget.
    let tokenBudget: RateLimiter
    /// Each client address's budget of failed authentications.
    let failedAuthBudget: RateLimiter

    /// Wires the API over its stores.
    public init(store: any SyncStore, access: any AccessStore, webhooks: any WebhookStore,
                onWebhookChange: @escaping @Sendable () -> Void = {}, limits: APILimits = APILimits(),
                executor: BlockingExecutor = BlockingExecutor(),
                logger: Logger = Logger(label: "caresync.api"), clock: @escaping @Sendable () -> Date = { Date() },
                readiness: @escaping @Sendable () -> Bool = { true }, metrics: ServerMetrics = ServerMetrics(),
                rateLimitClock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.store = store; self.access = access; self.webhooks = webhooks; self.onWebhookChange = onWebhookChange
        anchors = AnchorWire(key: store.anchorKey)
        self.limits = limits; self.executor = executor; self.logger = logger; self.clock = clock
        self.readiness = readiness
        self.metrics = metrics
        authenticator = Authenticator(store: access)
        admin = AccessAdmin(store: access)
        audit = AuditLog(store: access, logger: logger)
        tokenWaits = TokenWaits(limit: limits.maxWaitsPerToken)
        tokenBudget = RateLimiter(perSecond: limits.tokenRequestsPerSecond, burst: limits.tokenBurst, clock: rateLimitClock)
        failedAuthBudget = RateLimiter(perSecond: limits.failedAuthPerSecond, burst: limits.failedAuthBurst, clock: rateLimitClock)
    }

    /// Wakes long polls whenever the store commits a change of their patient.
    var notifier: ChangeNotifier { store.notifier }

    /// Wakes parked long polls and ends event streams (shutdown).
    public func shutdown() {
        streams.stop()
        notifier.wakeAll()
    }

    /// Awaits a store write that blocks no thread, records its duration; store errors become API errors.
    func timedAsyncWrite<T: Sendable>(_ operation: String, _ body: () async throws -> T) async throws -> T {
        let started = ContinuousClock.now
        defer { metrics.recordDatabaseWrite(operation: operation, duration: ContinuousClock.now - started) }
        do {
            return try await body()
        } catch let e as SyncError {
            throw HTTPError.from(e)
        }
    }

    /// Runs blocking store work off the cooperative pool; store errors become API errors.
    func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        do {
            return try await executor.run(body)
        } catch let e as SyncError {
            throw HTTPError.from(e)
        }
    }

    /// The caller of a request's `Authorization` header, or 401; 429 when the caller's address has failed
    /// authentication too often or the token is over its budget.
    ///
    /// Every attempt reserves one failure from its address's budget before the token is looked at, and a
    /// success gives it back: concurrent bad tokens cannot all pass a check made before any of them is
    /// charged. A request without a known address shares one budget with every other such request.
    public func authenticate(authorization: String?, peer: String? = nil) async throws -> Principal {
        let address = peer.map(PeerAddress.host(of:)) ?? Self.unknownAddress
        if let seconds = failedAuthBudget.spend(address) {
            metrics.rateLimited(reason: "failedAuth")
            throw HTTPError.tooManyRequests("Too many failed authentications from this address; retry later.", retryAfter: seconds)
        }
        let now = clock()
        let authenticator = self.authenticator
        let principal: Principal
        do {
            principal = try await blocking { try authenticator.authenticate(authorization: authorization, now: now) }
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

    /// The failed-authentication key of a request whose client address is not known.
    static let unknownAddress = "unknown"

    /// The caller of a request, or 401 (or 429, as above).
    func authenticate(_ request: Request, _ context: APIContext) async throws -> Principal {
        if let known = context.principal { return known }
        return try await authenticate(authorization: request.header("Authorization"), peer: request.remoteAddress)
    }

    /// Authenticates, checks reach to `{patientId}`, runs `body`, and commits an audit record with the
    /// status answered and the item count `body` reports (0 on failure) before the answer leaves.
    func patientScoped(_ request: Request, _ context: APIContext, action: String,
                       _ body: @escaping @Sendable (Principal, String) async throws -> (Response, Int)) async throws -> Response {
        try await patientScopedWrite(request, context, action: action) { principal, patient, _ in try await body(principal, patient) }
    }

    /// `patientScoped` for a handler that may store the audit record itself: a write in its own transaction (see
    /// `keyedWrite`), or the feed while it writes the page (`getChanges`).
    func patientScopedWrite(_ request: Request, _ context: APIContext, action: String,
                            _ body: @escaping @Sendable (Principal, String, AuditScope) async throws -> (Response, Int)) async throws -> Response {
        let principal = try await authenticate(request, context)
        let patient: String
        do {
            patient = try context.parameter("patientId")
        } catch {
            // Refused before any lookup; the record names the id by its hash, never by its text.
            let scope = AuditScope(principal: principal, patient: PathID.auditPatient(context.parameters["patientId"]), action: action)
            try? await audit.commit(scope.record(count: 0, status: error.status.code, time: clock()))
            throw error
        }
        let scope = AuditScope(principal: principal, patient: patient, action: action)
        let reply: Response, count: Int
        do {
            let authenticator = self.authenticator
            if !authenticator.isKnownInReach(principal, patient: patient) {
                try await blocking { try authenticator.requireReach(principal, patient: patient) }
            }
            (reply, count) = try await body(principal, patient, scope)
        } catch {
            // The refusal is answered even if its record cannot be stored: it shows no patient data.
            try? await audit.commit(scope.record(count: 0, status: (error as? HTTPError)?.status.code ?? 500, time: clock()))
            throw error
        }
        if !scope.isStored {
            try await audit.commit(scope.record(count: count, status: reply.status.code, time: clock()))
        }
        return reply
    }

    /// Parses a JSON request body: 415 for another content type, 400 for bad JSON.
    func jsonBody(_ request: Request) throws -> JSONValue {
        if let type = request.header("Content-Type") {
            let media = type.split(separator: ";").first.map { $0.trimmingSpaces().lowercased() } ?? ""
            guard media == "application/json" || (media.hasPrefix("application/") && media.hasSuffix("+json")) else {
                throw HTTPError.unsupportedMediaType("Send JSON with Content-Type: application/json.")
            }
        }
        guard !request.body.isEmpty else { throw HTTPError.invalidJSON("The request has no body; a JSON object is required.") }
        return try JSONValue.parse(request.body)
    }
}
