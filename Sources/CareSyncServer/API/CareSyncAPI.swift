import Crypto
import Foundation
import Logging
import CareSyncCore

/// The API of api.md as request → reply functions over a sync store and an access store.
/// The socket layer routes to the handlers listed in `routes`; tests can call them directly.
public final class CareSyncAPI: Sendable {
    let store: any SyncStore
    let access: any AccessStore
    let authenticator: Authenticator
    let admin: AccessAdmin
    let notifier: ChangeNotifier
    let idempotency: any IdempotencyStore
    let audit: AuditLog
    let executor: BlockingExecutor
    let limits: APILimits
    let clock: @Sendable () -> Date
    let logger: Logger
    let readiness: @Sendable () -> Bool
    /// Prometheus metrics of this server.
    public let metrics: ServerMetrics
    /// Feed reads shared by long polls woken by the same commit.
    let sharedReads = SharedReads()
    /// Each token's request budget.
    let tokenBudget: RateLimiter
    /// Each client address's budget of failed authentications.
    let failedAuthBudget: RateLimiter
    /// Idempotency keys whose first request is still running.
    let keysInFlight = Locked(Set<String>())

    /// Wires the API over its stores.
    public init(store: any SyncStore, access: any AccessStore, idempotency: any IdempotencyStore = InMemoryIdempotencyStore(),
                limits: APILimits = APILimits(),
                notifier: ChangeNotifier = ChangeNotifier(), executor: BlockingExecutor = BlockingExecutor(),
                logger: Logger = Logger(label: "caresync.api"), clock: @escaping @Sendable () -> Date = { Date() },
                readiness: @escaping @Sendable () -> Bool = { true }, metrics: ServerMetrics = ServerMetrics()) {
        self.store = store; self.access = access; self.idempotency = idempotency
        self.limits = limits; self.notifier = notifier; self.executor = executor; self.logger = logger; self.clock = clock
        self.readiness = readiness
        self.metrics = metrics
        authenticator = Authenticator(store: access)
        admin = AccessAdmin(store: access)
        audit = AuditLog(store: access, logger: logger)
        tokenBudget = RateLimiter(perSecond: limits.tokenRequestsPerSecond, burst: limits.tokenBurst)
        failedAuthBudget = RateLimiter(perSecond: limits.failedAuthPerSecond, burst: limits.failedAuthBurst)
    }

    /// Wakes parked long polls (shutdown).
    public func shutdown() {
        notifier.wakeAll()
    }

    /// Runs a store write off the cooperative pool and records its duration.
    func timedWrite<T: Sendable>(_ operation: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        let started = ContinuousClock.now
        defer { metrics.recordDatabaseWrite(operation: operation, duration: ContinuousClock.now - started) }
        return try await blocking(body)
    }

    /// Awaits a store write that blocks no thread, records its duration; store errors become API errors.
    func timedAsyncWrite<T: Sendable>(_ operation: String, _ body: () async throws -> T) async throws -> T {
        let started = ContinuousClock.now
        defer { metrics.recordDatabaseWrite(operation: operation, duration: ContinuousClock.now - started) }
        do {
            return try await body()
        } catch let e as SyncError {
            throw APIError.from(e)
        }
    }

    /// Runs blocking store work off the cooperative pool; store errors become API errors.
    func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        do {
            return try await executor.run(body)
        } catch let e as SyncError {
            throw APIError.from(e)
        }
    }

    /// The caller of a request's `Authorization` header, or 401; 429 when the caller's address has failed
    /// authentication too often (checked before the token is looked at) or the token is over its budget.
    public func authenticate(authorization: String?, peer: String? = nil) async throws -> Principal {
        let address = peer.map(Self.host(of:))
        if let address, let seconds = failedAuthBudget.wait(for: address) {
            metrics.rateLimited(reason: "failedAuth")
            throw APIError.tooManyRequests("Too many failed authentications from this address; retry later.", retryAfter: seconds)
        }
        let now = clock()
        let authenticator = self.authenticator
        let principal: Principal
        do {
            principal = try await blocking { try authenticator.authenticate(authorization: authorization, now: now) }
        } catch let error as APIError where error.status == 401 {
            if let address { _ = failedAuthBudget.spend(address) }
            throw error
        }
        if let seconds = tokenBudget.spend(principal.tokenID) {
            metrics.rateLimited(reason: "token")
            throw APIError.tooManyRequests("This token is over its request budget; retry later.", retryAfter: seconds)
        }
        return principal
    }

    /// The caller of a request, or 401 (or 429, as above).
    func authenticate(_ request: APIRequest) async throws -> Principal {
        if let known = request.principal { return known }
        return try await authenticate(authorization: request.header("Authorization"))
    }

    /// The host part of a peer address: "127.0.0.1:5123" → "127.0.0.1", "[::1]:5123" → "[::1]".
    static func host(of peer: String) -> String {
        guard let colon = peer.lastIndex(of: ":"), peer.first == "[" || peer.firstIndex(of: ":") == colon else { return peer }
        return String(peer[..<colon])
    }

    /// Authenticates, checks reach to `{patientId}`, runs `body`, and commits an audit record with the
    /// status answered and the item count `body` reports (0 on failure) before the answer leaves.
    func patientScoped(_ request: APIRequest, action: String,
                       _ body: @escaping @Sendable (Principal, String) async throws -> (APIReply, Int)) async throws -> APIReply {
        try await patientScopedWrite(request, action: action) { principal, patient, _ in try await body(principal, patient) }
    }

    /// `patientScoped` for a write, which may store the audit record in its own transaction (see `keyedWrite`).
    func patientScopedWrite(_ request: APIRequest, action: String,
                            _ body: @escaping @Sendable (Principal, String, AuditScope) async throws -> (APIReply, Int)) async throws -> APIReply {
        let principal = try await authenticate(request)
        let patient = try request.parameter("patientId")
        let scope = AuditScope(principal: principal, patient: patient, action: action)
        let reply: APIReply, count: Int
        do {
            let authenticator = self.authenticator
            if !authenticator.isKnownInReach(principal, patient: patient) {
                try await blocking { try authenticator.requireReach(principal, patient: patient) }
            }
            (reply, count) = try await body(principal, patient, scope)
        } catch {
            // The refusal is answered even if its record cannot be stored: it shows no patient data.
            try? await audit.commit(scope.record(count: 0, status: (error as? APIError)?.status ?? 500, time: clock()))
            throw error
        }
        if !scope.isStored {
            try await audit.commit(scope.record(count: count, status: reply.status, time: clock()))
        }
        return reply
    }

    /// Parses a JSON request body: 415 for another content type, 400 for bad JSON.
    func jsonBody(_ request: APIRequest) throws -> JSONValue {
        if let type = request.header("Content-Type") {
            let media = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            guard media == "application/json" || (media.hasPrefix("application/") && media.hasSuffix("+json")) else {
                throw APIError.unsupportedMediaType("Send JSON with Content-Type: application/json.")
            }
        }
        guard !request.body.isEmpty else { throw APIError.invalidJSON("The request has no body; a JSON object is required.") }
        return try JSONValue.parse(request.body)
    }

    /// Answers a POST through its `Idempotency-Key`: a retry with the same body gets the first answer,
    /// the same key with another body is 422. Only successful answers are kept.
    func idempotent(_ request: APIRequest, principal: Principal,
                    _ body: () async throws -> APIReply) async throws -> APIReply {
        guard let key = request.header("Idempotency-Key") else { return try await body() }
        guard !key.isEmpty, key.utf8.count <= 255 else {
            throw APIError.invalidParameter("Idempotency-Key", "must be 1–255 characters")
        }
        let hash = Self.requestHash(request)
        let now = clock()
        let idempotency = self.idempotency
        let tokenID = principal.tokenID
        if let stored = try await blocking({ try idempotency.reply(tokenID: tokenID, key: key, now: now) }) {
            return try Self.replay(stored, requestHash: hash)
        }
        // A concurrent retry with the same key waits for nothing: it is told to retry once the first one answered.
        let slot = "\(tokenID)\u{0}\(key)"
        guard keysInFlight.withLock({ $0.insert(slot).inserted }) else {
            throw APIError.conflict("A request with this Idempotency-Key is still in progress; retry after it answered.")
        }
        defer { keysInFlight.withLock { _ = $0.remove(slot) } }
        // It may have finished between the lookup and the claim.
        if let stored = try await blocking({ try idempotency.reply(tokenID: tokenID, key: key, now: now) }) {
            return try Self.replay(stored, requestHash: hash)
        }
        let reply = try await body()
        if (200..<300).contains(reply.status) {
            let saved = IdempotentReply(requestHash: hash, status: reply.status, body: reply.body,
                                        expiresAt: now.addingTimeInterval(limits.idempotencyRetention))
            try await blocking { try idempotency.save(tokenID: tokenID, key: key, reply: saved) }
        }
        return reply
    }

    /// The stored answer for a retry with the same body; 422 when the key came with another body.
    static func replay(_ stored: IdempotentReply, requestHash: [UInt8]) throws -> APIReply {
        guard TokenSecret.constantTimeEquals(stored.requestHash, requestHash) else {
            throw APIError.validation([ValidationProblem(index: nil, field: "Idempotency-Key",
                message: "this key was used with a different request body")],
                detail: "The Idempotency-Key was already used for a different request.")
        }
        return APIReply(status: stored.status, headers: [("Content-Type", "application/json"), ("Idempotent-Replayed", "true")],
                        body: stored.body)
    }
}
