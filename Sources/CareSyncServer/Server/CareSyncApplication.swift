import Synchronization
import CareSyncCore
import CareSyncHTTP
import CareSyncPostgres
import CareSyncStore
import Foundation
import Logging

/// The whole server: database, stores, API and HTTP listener, built from one `Configuration`.
/// `caresync serve` and the tests both make it with `buildServer(_:)`.
public final class CareSyncApplication: Sendable {
    /// The API (handlers, stores).
    public let api: CareSyncAPI
    /// The HTTP listener.
    public let http: HTTPServer
    /// What the listener runs each request through (router, web app, access log) and its head filter: the
    /// same pipeline without a socket, for in-memory tests (`InMemoryClient`).
    public let responder: any HTTPResponder
    public let headFilter: any RequestHeadFilter
    /// The open SQLite database; nil when the stores are on PostgreSQL (`database.url`).
    public let database: Database?
    /// The configuration it was built from.
    public let configuration: Configuration
    /// The webhook delivery job, running between `start()` and `shutdown()`.
    public let webhooks: WebhookDispatcher
    let logger: Logger
    /// What runs beside the listener, while it runs.
    private struct Jobs {
        let retention: RetentionJob
        let idempotencyPurge: Task<Void, Never>
    }
    private let jobs = Mutex<Jobs?>(nil)

    init(api: CareSyncAPI, http: HTTPServer, responder: any HTTPResponder, headFilter: any RequestHeadFilter,
         database: Database?, configuration: Configuration, webhooks: WebhookDispatcher, logger: Logger) {
        self.api = api; self.http = http; self.responder = responder; self.headFilter = headFilter
        self.database = database; self.configuration = configuration; self.webhooks = webhooks; self.logger = logger
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
    /// instance holds its lease (`JobLeases`). Returns the bound port (the chosen one for port 0).
    @discardableResult
    public func start() throws -> Int {
        let port = try http.start()
        let retention = RetentionJob(store: api.store, retentionDays: configuration.tombstoneRetentionDays,
                                     metrics: api.metrics, logger: logger)
        retention.start()
        let expiry = IdempotencyExpiryJob(store: api.store, logger: logger)
        let purge = Task { [api, logger] in
            while !Task.isCancelled {
                do {
                    _ = try await api.executor.run { try expiry.runOnce(now: Date()) }
                } catch {
                    logger.error("idempotency.purge_failed", metadata: ["error": "\(type(of: error))"])
                }
                try? await Task.sleep(for: .seconds(3600))
            }
        }
        webhooks.start()
        jobs.withLock { $0 = Jobs(retention: retention, idempotencyPurge: purge) }
        return port
    }

    /// Stops in order: the background jobs (a retention run in progress finishes; webhook attempts under way are
    /// cancelled and go out again after a restart), then the listener — it
    /// stops accepting, answers parked long polls and lets requests in flight finish (each commits its own
    /// audit record before answering, so nothing is left to flush).
    public func shutdown(gracePeriod: Duration = .seconds(10)) async {
        let running = jobs.withLock { jobs in defer { jobs = nil }; return jobs }
        running?.idempotencyPurge.cancel()
        await running?.retention.stop()
        await webhooks.stop()
        api.shutdown()
        await http.shutdown(gracePeriod: gracePeriod)
        api.shutdown()  // again: releases a long poll that parked after the first wake and outlived the grace period
    }
}

/// Opens (creating if needed) and migrates the database the configuration names.
public func openDatabase(_ configuration: Configuration) throws -> Database {
    let url = URL(fileURLWithPath: configuration.databasePath)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    var dbConfiguration = Database.Configuration()
    dbConfiguration.connection.synchronous = switch configuration.sqliteSynchronous {
    case .off: .off
    case .normal: .normal
    case .full: .full
    case .extra: .extra
    }
    let database = try StartupCheck.opening(configuration.databasePath) {
        try Database(path: configuration.databasePath, configuration: dbConfiguration)
    }
    try StartupCheck.verifyWritable(database)
    try Migrator(directory: URL(fileURLWithPath: configuration.migrationsDirectory)).migrate(database)
    return database
}

/// Builds the server the configuration describes: opens and migrates the database, wires the stores,
/// the API and the HTTP listener. Nothing listens until `start()`.
/// `rateLimitClock` is what the rate limiters read (tests freeze it).
public func buildServer(_ configuration: Configuration, logger: Logger = Logger(label: "caresync"),
                        metrics: ServerMetrics = ServerMetrics(),
                        rateLimitClock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now })
    throws -> CareSyncApplication {
    OpenFileLimit.ensureRoom(for: configuration.maxConnections, logger: logger)
    let stores = try openStores(configuration)
    var limits = APILimits()
    limits.maxItemsPerRequest = configuration.limits.samplesPerRequest
    limits.maxReportsPerPatient = configuration.limits.reportsPerPatient
    limits.idempotencyRetention = TimeInterval(configuration.idempotencyRetentionHours) * 3600
    limits.tokenRequestsPerSecond = Double(configuration.rateLimits.tokenRequestsPerSecond)
    limits.tokenBurst = Double(configuration.rateLimits.tokenBurst)
    limits.failedAuthPerSecond = Double(configuration.rateLimits.failedAuthPerMinute) / 60
    limits.failedAuthBurst = Double(configuration.rateLimits.failedAuthBurst)
    limits.maxWaitsPerToken = configuration.rateLimits.waitsPerToken
    limits.streamKeepAlive = configuration.stream.keepAlive
    limits.streamLifetime = configuration.stream.lifetime
    limits.allowPrivateWebhookAddresses = configuration.webhooks.allowPrivateAddresses
    let webhooks = WebhookDispatcher(store: stores.webhooks, leases: stores.sync, settings: configuration.webhooks,
                                     notifier: stores.sync.notifier, metrics: metrics, logger: logger)
    // Idempotency-Key answers are the store's own records, written in the write's transaction.
    let api = CareSyncAPI(store: stores.sync, access: stores.access, webhooks: stores.webhooks,
                          onWebhookChange: { webhooks.poke() }, limits: limits, logger: logger, metrics: metrics,
                          rateLimitClock: rateLimitClock)
    var router = api.makeRouter()
    WebApp.register(on: &router)
    let responder = router.wrapped(by: RequestLogMiddleware(level: .info))
    let headFilter = api.makeHeadFilter()
    let http = HTTPServer(configuration: configuration.httpConfiguration, responder: responder,
                          headFilter: headFilter, logger: logger, onRefusal: { metrics.connectionRefused(reason: $0.rawValue) })
    metrics.onCollect { [http] in $0.setOpenConnections(http.connectionCount) }
    return CareSyncApplication(api: api, http: http, responder: responder, headFilter: headFilter, database: stores.sqlite,
                               configuration: configuration, webhooks: webhooks, logger: logger)
}

/// The stores the configuration names, opened and migrated: PostgreSQL when `database.url` is set, else
/// the SQLite file (the default).
func openStores(_ configuration: Configuration)
    throws -> (sync: any SyncStore, access: any AccessStore, webhooks: any WebhookStore, sqlite: Database?) {
    if configuration.databaseURL != nil {
        let store = try openPostgres(configuration)
        return (store, PostgresAccessStore(database: store.database), PostgresWebhookStore(store: store), nil)
    }
    let database = try openDatabase(configuration)
    return (try SQLiteSyncStore(database: database), SQLiteAccessStore(database: database), SQLiteWebhookStore(database: database),
            database)
}

/// Connects to the PostgreSQL database of `database.url` and applies `<migrationsDirectory>/postgresql`.
public func openPostgres(_ configuration: Configuration) throws -> PostgresSyncStore {
    guard let url = configuration.databaseURL else { preconditionFailure("openPostgres without database.url") }
    return try PostgresSyncStore(configuration: PostgresDatabase.Configuration(url: url),
                                 migrationsDirectory: postgresMigrations(configuration))
}

/// The PostgreSQL migrations: the `postgresql` folder of the migrations directory.
func postgresMigrations(_ configuration: Configuration) -> URL {
    URL(fileURLWithPath: configuration.migrationsDirectory).appendingPathComponent("postgresql")
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
            eventLoopCount: workerCount)
    }
}

/// Applies pending migrations to the configured database; returns the names applied.
public func migrateDatabase(_ configuration: Configuration) throws -> [String] {
    if let url = configuration.databaseURL {
        return try PostgresMigrator(directory: postgresMigrations(configuration))
            .migrate(PostgresDatabase(PostgresDatabase.Configuration(url: url)))
    }
    let url = URL(fileURLWithPath: configuration.databasePath)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let database = try Database(path: configuration.databasePath)
    return try Migrator(directory: URL(fileURLWithPath: configuration.migrationsDirectory)).migrate(database)
}

/// Operator actions over the configured database (migrated first).
public func makeAccessAdmin(_ configuration: Configuration) throws -> AccessAdmin {
    AccessAdmin(store: try openStores(configuration).access)
}

/// Copies the configured database to `path` through SQLite's online backup.
public func backupDatabase(_ configuration: Configuration, to path: String) throws {
    guard configuration.databaseURL == nil else { throw BackupUnsupported() }
    let store = try SQLiteSyncStore(database: try openDatabase(configuration))
    _ = try store.backup(to: path)
}

/// `caresync backup` copies the SQLite file; a PostgreSQL database has its own tools.
struct BackupUnsupported: Error, CustomStringConvertible {
    var description: String { "backup copies the SQLite file; on PostgreSQL use pg_dump or a base backup (pg_basebackup)" }
}
