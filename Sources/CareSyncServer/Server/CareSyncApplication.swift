import CareSyncCore
import CareSyncLocking
import CareSyncHTTP
import CareSyncWebApp
import Foundation
import Logging

/// The whole server: stores, API and HTTP listener, built from one `Configuration` and the store backend it names.
/// `caresync serve` and the tests both make it with `buildServer(_:backend:)`.
public final class CareSyncApplication: Sendable {
    /// The API (handlers, stores).
    public let api: CareSyncAPI
    /// The HTTP listener.
    public let http: HTTPServer
    /// What the listener runs each request through (router, web app, access log) and its head filter: the
    /// same pipeline without a socket, for in-memory tests (`InMemoryClient`).
    public let responder: any HTTPResponder
    public let headFilter: any RequestHeadFilter
    /// The opened store backend the API serves from (SQLite or PostgreSQL: the executable chose it).
    public let backend: any StoreBackend
    /// The configuration it was built from.
    public let configuration: Configuration
    /// The webhook delivery job, running between `start()` and `shutdown()`.
    public let webhooks: WebhookDispatcher
    /// The alert evaluation job, running between `start()` and `shutdown()`.
    public let alertJob: AlertEvaluationJob
    let logger: Logger
    /// What runs beside the listener, while it runs.
    private struct Jobs {
        let retention: RetentionJob
        let idempotencyPurge: Task<Void, Never>
        let exportSweep: PeriodicJob
        let reachWatch: PeriodicJob
    }
    private let jobs = Locked<Jobs?>(nil)

    init(api: CareSyncAPI, http: HTTPServer, responder: any HTTPResponder, headFilter: any RequestHeadFilter,
         backend: any StoreBackend, configuration: Configuration, webhooks: WebhookDispatcher, alertJob: AlertEvaluationJob, logger: Logger) {
        self.api = api; self.http = http; self.responder = responder; self.headFilter = headFilter
        self.backend = backend; self.configuration = configuration; self.webhooks = webhooks; self.alertJob = alertJob; self.logger = logger
    }

    /// The whole life of a serving process: starts everything (`start()`), calls `onListening` with the
    /// bound port, waits for SIGTERM or SIGINT, then stops everything in order (`shutdown()`).
    /// Signals are caught before `onListening` runs, so a SIGTERM right after the ready line still drains.
    public func run(gracePeriod: Duration = .seconds(10), onListening: (Int) -> Void) async throws {
        let termination = TerminationSignal()
        let port = try start()
        onListening(port)
        await termination.wait()
        logger.info("server.stopping")
        await shutdown(gracePeriod: gracePeriod)
        logger.info("server.stopped")
    }

    /// Binds and starts serving, then the background jobs: tombstone retention (at once, then hourly), the
    /// hourly purge of expired idempotency records and the webhook dispatcher, each running only while this
    /// instance holds its lease (`JobLeases`), this instance's sweep of expired bulk export files (every minute), and
    /// on SQLite its watch for erasures and removals from care teams made elsewhere (every 5 s, `ReachWatch`). Returns the bound port (the chosen one for port 0).
    @discardableResult
    public func start() throws -> Int {
        let port = try http.start()
        api.passkeys.listening(on: port)
        let retention = RetentionJob(store: api.store, retentionDays: configuration.tombstoneRetentionDays,
                                     metrics: api.metrics, logger: logger, clock: api.clock)
        retention.start()
        let expiry = IdempotencyExpiryJob(store: api.store, logger: logger)
        let purge = Task { [api, logger, clock = api.clock] in
            while !Task.isCancelled {
                do {
                    _ = try await api.executor.run { try expiry.runOnce(now: clock.now()) }
                } catch {
                    logger.error("idempotency.purge_failed", metadata: ["error": "\(type(of: error))"])
                }
                try? await Task.sleep(for: .seconds(3600))
            }
        }
        webhooks.start()
        if configuration.alertEvaluationSeconds > 0 { alertJob.start() }
        // Every instance beats for its own runs and sweeps the expired exports of all (no lease: a folder removed twice is
        // gone once); the first sweep also removes folders no export names any more.
        let exports = api.exports
        let exportSweep = PeriodicJob("export.sweep", every: .seconds(60), on: api.executor, logger: logger) {
            try exports.sweep(now: exports.clock.now())
        }
        exportSweep.start()
        let watch = ReachWatch(erasure: backend.erasure, access: backend.access, notifier: api.store.notifier), log = logger
        let reachWatch = PeriodicJob("reach.watch", every: .seconds(5), on: api.executor, logger: logger) {
            switch try watch.look() {
            case .erasure: log.info("erasure.noticed")
            case .removal: log.info("removal.noticed")
            case .nothing: break
            }
        }
        // PostgreSQL's instances hear every erasure and removal, the command line's too, on the store's channel (and
        // forget every reach when their listener reconnects); only SQLite's other processes go unheard.
        if configuration.databaseURL == nil { reachWatch.start() }
        jobs.withLock { $0 = Jobs(retention: retention, idempotencyPurge: purge, exportSweep: exportSweep, reachWatch: reachWatch) }
        return port
    }

    /// Stops in order: the background jobs (a retention run in progress finishes; webhook attempts under way are
    /// cancelled and go out again after a restart; this instance's unfinished bulk exports are cancelled and their files removed; finished ones stay until they expire), then the listener — it
    /// stops accepting, answers parked long polls and lets requests in flight finish (each commits its own
    /// audit record before answering, so nothing is left to flush).
    public func shutdown(gracePeriod: Duration = .seconds(10)) async {
        let running = jobs.withLock { jobs in defer { jobs = nil }; return jobs }
        running?.idempotencyPurge.cancel()
        await running?.exportSweep.stop()
        await running?.reachWatch.stop()
        await running?.retention.stop()
        await api.exports.stop()
        await webhooks.stop()
        await alertJob.stop()
        api.shutdown()
        await http.shutdown(gracePeriod: gracePeriod)
        api.shutdown()  // again: releases a long poll that parked after the first wake and outlived the grace period
    }
}

/// Builds the server the configuration describes over `backend`'s stores (opened and migrated by the caller):
/// wires the API and the HTTP listener. Nothing listens until `start()`.
/// `clock` is the server's one time: the API's (audit records, expiries, rate limits, long-poll deadlines) and the
/// background jobs' (retention, idempotency purge, webhooks, alerts); tests pass a hand-moved one.
public func buildServer(_ configuration: Configuration, backend: any StoreBackend, logger: Logger = Logger(label: "caresync"),
                        metrics: ServerMetrics = ServerMetrics(), clock: ServerClock = .system)
    throws -> CareSyncApplication {
    OpenFileLimit.ensureRoom(for: configuration.maxConnections, logger: logger)
    var limits = APILimits()
    limits.maxItemsPerRequest = configuration.limits.samplesPerRequest
    limits.maxReportsPerPatient = configuration.limits.reportsPerPatient
    limits.idempotencyRetention = TimeInterval(configuration.idempotencyRetentionHours) * 3600
    limits.tokenRequestsPerSecond = Double(configuration.rateLimits.tokenRequestsPerSecond)
    limits.tokenBurst = Double(configuration.rateLimits.tokenBurst)
    limits.failedAuthPerSecond = Double(configuration.rateLimits.failedAuthPerMinute) / 60
    limits.failedAuthBurst = Double(configuration.rateLimits.failedAuthBurst)
    limits.maxWaitsPerToken = configuration.rateLimits.waitsPerToken
    limits.maxParkedPolls = configuration.maxParkedPolls
    limits.streamKeepAlive = configuration.stream.keepAlive
    limits.streamLifetime = configuration.stream.lifetime
    limits.allowPrivateWebhookAddresses = configuration.webhooks.allowPrivateAddresses
    limits.fhirPublicURL = configuration.fhirPublicUrl.isEmpty ? nil : configuration.fhirPublicUrl
    limits.exportDirectory = configuration.resolvedExportDirectory(storeID: backend.sync.storeID)
    limits.exportExpiry = TimeInterval(configuration.exportExpiryMinutes) * 60
    var enrolment = EnrolmentSettings()
    enrolment.codeLifetime = TimeInterval(configuration.enrolment.codeMinutes * 60)
    enrolment.publicURL = configuration.enrolment.publicUrl.isEmpty ? nil : configuration.enrolment.publicUrl
    enrolment.redeemPerMinute = Double(configuration.enrolment.redeemPerMinute)
    enrolment.redeemBurst = Double(configuration.enrolment.redeemBurst)
    limits.sessions = configuration.sessions
    limits.trustedProxies = configuration.trustedProxies
    limits.publicOrigins = configuration.publicOrigins
    limits.webAuthn = configuration.webAuthn
    limits.openIDConnect = configuration.oidc
    limits.openIDConnectSecret = try configuration.oidc.resolvedSecret()
    let webhooks = WebhookDispatcher(store: backend.webhooks, leases: backend.sync, settings: configuration.webhooks,
                                     notifier: backend.sync.notifier, metrics: metrics, logger: logger, clock: clock)
    // Idempotency-Key answers are the store's own records, written in the write's transaction.
    let api = CareSyncAPI(store: backend.sync, access: backend.access, webhooks: backend.webhooks, monitoring: backend.monitoring,
                          alerts: backend.alerts, erasure: backend.erasure,
                          enrolments: backend.enrolments, enrolment: enrolment, passkeys: backend.passkeys, ceremonies: backend.ceremonies,
                          bulkExports: backend.bulkExports,
                          onWebhookChange: { webhooks.poke() }, limits: limits, logger: logger, clock: clock, metrics: metrics)
    let evaluator = AlertEvaluator(store: backend.sync, access: backend.access, monitoring: backend.monitoring, alerts: backend.alerts)
    let alertJob = AlertEvaluationJob(evaluator: evaluator, leases: backend.sync, notifier: backend.sync.notifier,
                                      interval: .seconds(max(configuration.alertEvaluationSeconds, 1)), logger: logger,
                                      clock: clock, onEvents: { _ in webhooks.poke() })
    var router = api.makeRouter()
    WebApp.register(on: &router)
    let responder = router.wrapped(by: RequestLogMiddleware(level: .info))
    let headFilter = RequestLogHeadFilter(api.makeHeadFilter(), router: router)
    let http = HTTPServer(configuration: configuration.httpConfiguration, responder: responder,
                          headFilter: headFilter, logger: logger, onRefusal: { metrics.connectionRefused(reason: $0.rawValue) })
    metrics.onCollect { [http] in $0.setOpenConnections(http.connectionCount) }
    return CareSyncApplication(api: api, http: http, responder: responder, headFilter: headFilter, backend: backend,
                               configuration: configuration, webhooks: webhooks, alertJob: alertJob, logger: logger)
}

extension Configuration {
    /// The listener's settings.
    public var httpConfiguration: HTTPServer.Configuration {
        HTTPServer.Configuration(
            host: host, port: port, maxConnections: maxConnections, maxConnectionsPerAddress: maxConnectionsPerAddress,
            reservedProbeConnections: reservedProbeConnections, probePaths: ["/healthz", "/readyz", "/metrics"],
            maxBodySize: limits.bodyBytes,
            maxRequestLineLength: limits.requestLineBytes, maxHeaderSize: limits.headerBytes, maxHeaderCount: limits.headerCount,
            headerReadTimeout: timeouts.headerRead, bodyReadTimeout: timeouts.bodyRead, idleTimeout: timeouts.idle,
            writeTimeout: timeouts.write, gzipThreshold: gzipThresholdBytes, gzipLevel: Int32(gzipLevel),
            eventLoopCount: workerCount, maxConcurrentRequests: effectiveMaxRequestsInFlight)
    }
}
