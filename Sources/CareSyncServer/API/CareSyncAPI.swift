import CareSyncCore
import CareSyncHTTP
import Foundation
import Logging

/// The API of api.md, assembled: the parts every controller shares (the access gate, store calls, keyed writes,
/// the change reader) and one struct per controller, each holding only what it uses and listing its own routes.
/// The socket layer routes to the handlers listed in `routes`.
public final class CareSyncAPI: Sendable {
    /// The sync store the controllers read and write.
    let store: any SyncStore
    /// Patients, care teams, tokens and the audit log.
    let access: any AccessStore
    /// Webhook subscriptions and deliveries.
    let webhooks: any WebhookStore
    /// Device enrolments and source display names; nil when the server has none.
    let enrolments: (any EnrolmentStore)?
    /// Operator actions over the access store.
    let admin: AccessAdmin
    /// People, invitations and sessions: the seam every sign-in method calls (`People.startSession(for:now:)`).
    public let people: People
    /// Runs blocking store work off the cooperative pool (the idempotency purge uses it too).
    let executor: BlockingExecutor
    let logger: Logger
    /// Prometheus metrics of this server.
    public let metrics: ServerMetrics
    /// Authentication, reach, roles and audit: what the head filter and every handler pass through.
    let gate: AccessGate
    /// The change feed's reads, waits and their limits.
    let reader: ChangeReader
    /// The FHIR bulk exports: their shared records, this instance's runs, their files and expiry.
    let exports: BulkExports
    /// The server's one clock (wall and monotonic time), which every controller and background job reads.
    public let clock: ServerClock
    /// Passkey ceremonies: relying party, pending challenges, credentials.
    public let passkeys: PasskeyService
    /// Every endpoint of the API, from the controllers; the OpenAPI document lists exactly these.
    public let routes: [APIRoute]

    /// Wires the API over its stores.
    public init(store: any SyncStore, access: any AccessStore, webhooks: any WebhookStore, monitoring: (any MonitoringStore)? = nil,
                alerts: (any AlertStore)? = nil,
                erasure: (any ErasureStore)? = nil,
                enrolments: (any EnrolmentStore)? = nil, enrolment: EnrolmentSettings = EnrolmentSettings(),
                passkeys passkeyStore: (any PasskeyStore)? = nil, ceremonies: any PendingCeremonyStore = InstanceCeremonyStore(),
                bulkExports: any BulkExportStore = InstanceBulkExportStore(),
                onWebhookChange: @escaping @Sendable () -> Void = {}, limits: APILimits = APILimits(),
                executor: BlockingExecutor = BlockingExecutor(),
                logger: Logger = Logger(label: "caresync.api"), clock: ServerClock = .system,
                readiness: @escaping @Sendable () -> Bool = { true }, metrics: ServerMetrics = ServerMetrics()) {
        self.store = store; self.access = access; self.webhooks = webhooks; self.enrolments = enrolments
        self.executor = executor; self.logger = logger; self.metrics = metrics; self.clock = clock
        let admin = AccessAdmin(store: access)
        self.admin = admin
        let calls = StoreCalls(executor: executor, metrics: metrics)
        let anchors = AnchorWire(key: store.anchorKey)
        let audit = AuditLog(store: access, logger: logger)
        let people = People(store: access, policy: limits.sessions, passkeys: passkeyStore)
        self.people = people
        let passkeys = PasskeyService(store: passkeyStore, ceremonies: ceremonies, settings: limits.webAuthn, publicOrigins: limits.publicOrigins, clock: clock)
        self.passkeys = passkeys
        let gate = AccessGate(
            authenticator: Authenticator(store: access, people: people), audit: audit, calls: calls, clock: clock, metrics: metrics,
            tokenBudget: RateLimiter(perSecond: limits.tokenRequestsPerSecond, burst: limits.tokenBurst, clock: clock),
            failedAuthBudget: RateLimiter(perSecond: limits.failedAuthPerSecond, burst: limits.failedAuthBurst, clock: clock),
            accountBudget: RateLimiter(perSecond: limits.failedSignInPerAccountPerSecond, burst: limits.failedSignInPerAccountBurst,
                                       clock: clock),
            people: people, trustedProxies: limits.trustedProxies,
            allowedOrigins: limits.publicOrigins.compactMap(Credentials.origin(of:)))
        self.gate = gate
        let reader = ChangeReader(store: store, calls: calls, tokens: TokenCheck(access: access, calls: calls, clock: clock, people: people,
                                                                                  reach: gate.authenticator),
                                  clock: clock, limits: limits, anchors: anchors, metrics: metrics, sharedReads: SharedCalls(), pagesAhead: PagesAhead(),
                                  streams: EventStreams(), tokenWaits: TokenWaits(limit: limits.maxWaitsPerToken))
        self.reader = reader
        // A removal from a care team or an erasure, here or on another instance, ends the reach this instance kept.
        store.notifier.onReachEnded { [weak authenticator = gate.authenticator, weak pagesAhead = reader.pagesAhead] patient in
            authenticator?.forget(patient: patient)
            pagesAhead?.forget(patient: patient)
        }
        let keyedWriter = KeyedWriter(store: store, calls: calls, clock: clock, logger: logger, retention: limits.idempotencyRetention)
        let fhir = FHIRController(gate: gate, store: store, access: access, executor: executor, publicURL: limits.fhirPublicURL)
        let exportSettings = BulkExports.Settings(
            directory: URL(fileURLWithPath: limits.exportDirectory ?? NSTemporaryDirectory() + "/caresync-exports", isDirectory: true),
            expiry: limits.exportExpiry)
        let exports = BulkExports(settings: exportSettings, store: bulkExports,
                                  runner: ExportRun(reader: reader, audit: audit, access: access, records: bulkExports, clock: clock,
                                                    settings: exportSettings, logger: logger),
                                  executor: executor, clock: clock)
        self.exports = exports
        // An erasure deleted the exports that read the patient with the rest of their rows: this instance's runs of
        // them stop and their files go.
        store.notifier.onErasure { [weak exports, executor, logger] patient in
            guard let exports else { return }
            Task {
                do { try await executor.run { try exports.forget(patient: patient, now: exports.clock.now()) } } catch {
                    logger.error("export.forget_failed", metadata: ["error.type": .string(String(describing: type(of: error)))])
                }
            }
        }
        let adminController = AdminController(gate: gate, admin: admin, access: access, calls: calls, clock: clock,
                                              notifier: store.notifier)
        let statusAlerts = alerts
        routes = SamplesController(gate: gate, keyedWriter: keyedWriter, anchors: anchors, metrics: metrics, clock: clock,
                                   maxItemsPerRequest: limits.maxItemsPerRequest).routes
            + FeedController(gate: gate, reader: reader, audit: audit, clock: clock).routes
            + ChecksumsController(gate: gate, store: store, calls: calls, anchors: anchors).routes
            + ReportsController(gate: gate, keyedWriter: keyedWriter, store: store, calls: calls, anchors: anchors, clock: clock,
                                maxItemsPerRequest: limits.maxItemsPerRequest, maxReportsPerPatient: limits.maxReportsPerPatient).routes
            + StatisticsController(gate: gate, store: store, calls: calls, anchors: anchors, pageLimit: limits.maxPageLimit).routes
            + TypesController(gate: gate).routes
            + adminController.routes
            + ErasureController(gate: gate, erasure: erasure, calls: calls, clock: clock, notifier: store.notifier).routes
            + WebhooksController(gate: gate, webhooks: webhooks, access: access, calls: calls, clock: clock,
                                 allowPrivateAddresses: limits.allowPrivateWebhookAddresses, onWebhookChange: onWebhookChange).routes
            + adminController.callerRoutes
            + OperationsController(store: store, executor: executor, readiness: readiness, metrics: metrics, logger: logger).routes
            + fhir.routes
            + FHIRExportController(fhir: fhir, exports: exports, anchors: anchors).routes
            + StatusController(gate: gate, store: store, access: access, alerts: statusAlerts, enrolments: enrolments, calls: calls,
                               clock: clock).routes
            + MonitoringController(gate: gate, store: store, access: access, monitoring: monitoring, calls: calls, clock: clock).routes
            + WorksheetController(gate: gate, store: store, access: access, monitoring: monitoring, calls: calls, clock: clock).routes
            + GoalsController(gate: gate, store: store, access: access, monitoring: monitoring, calls: calls, clock: clock).routes
            + AlertsController(gate: gate, access: access, alerts: alerts, calls: calls, clock: clock).routes
            + EnrolmentController(gate: gate, admin: admin, enrolments: enrolments, calls: calls, clock: clock, settings: enrolment,
                                  redeemBudget: RateLimiter(perSecond: enrolment.redeemPerMinute / 60, burst: enrolment.redeemBurst,
                                                            clock: clock)).routes
            + SessionController(gate: gate, calls: calls, clock: clock).routes
            + PeopleController(gate: gate, calls: calls, clock: clock, notifier: store.notifier,
                               linkOrigin: limits.publicOrigins.first).routes
            + PasskeyController(gate: gate, calls: calls, clock: clock, passkeys: passkeys,
                                challengeBudget: RateLimiter(perSecond: limits.failedAuthPerSecond, burst: limits.failedAuthBurst,
                                                             clock: clock)).routes
            + Self.openIDConnectRoutes(gate: gate, calls: calls, clock: clock, limits: limits, ceremonies: ceremonies)
    }

    /// Seals the anchors answers carry and opens the ones clients send (under the store's anchor key).
    var anchors: AnchorWire { reader.anchors }
    /// Wakes long polls whenever the store commits a change of their patient.
    var notifier: ChangeNotifier { store.notifier }
    /// The open event streams.
    var streams: EventStreams { reader.streams }
    /// Each token's long polls and event streams waiting now.
    var tokenWaits: TokenWaits { reader.tokenWaits }
    /// Requests waiting for a change now: parked long polls and open event streams.
    var parkedCount: Int { reader.parkedCount }

    /// The paths under `/v1` the head filter lets through unauthenticated: their handlers admit the caller themselves.
    static let unauthenticatedPaths: Set<String> = [SessionController.redeemPath, "/v1/enrolments/redeem",
                                                    SignInMethodsController.path, PasskeyController.signInChallengePath,
                                                    PasskeyController.signInPath, OIDCController.startPath, OIDCController.callbackPath]

    /// Wakes parked long polls and ends event streams (shutdown).
    public func shutdown() {
        streams.stop()
        notifier.wakeAll()
    }

    /// The caller of a request's `Authorization` header, or 401; 429 when over a budget (`AccessGate.authenticate`).
    public func authenticate(authorization: String?, peer: String? = nil) async throws -> Principal {
        try await gate.authenticate(authorization: authorization, peer: peer)
    }
}
