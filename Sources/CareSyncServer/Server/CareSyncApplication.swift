import Synchronization
import CareSyncCore
import CareSyncHTTP
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
    /// The open database.
    public let database: Database
    /// The configuration it was built from.
    public let configuration: Configuration
    let logger: Logger
    private let maintenance = Mutex<Task<Void, Never>?>(nil)

    init(api: CareSyncAPI, http: HTTPServer, database: Database, configuration: Configuration, logger: Logger) {
        self.api = api; self.http = http; self.database = database; self.configuration = configuration; self.logger = logger
    }

    /// Binds and starts serving, and an hourly purge of expired idempotency records; returns the bound
    /// port (the chosen one for port 0). Tombstone retention is `startOperations`' job.
    @discardableResult
    public func start() throws -> Int {
        let port = try http.start()
        let job = Task { [api, logger] in
            while !Task.isCancelled {
                do {
                    let store = api.store, now = Date()
                    try await api.executor.run { try store.purgeIdempotencyRecords(now: now) }
                } catch {
                    logger.error("idempotency.purge_failed", metadata: ["error": "\(type(of: error))"])
                }
                try? await Task.sleep(for: .seconds(3600))
            }
        }
        maintenance.withLock { $0 = job }
        return port
    }

    /// Stops accepting, answers parked long polls and lets requests in flight finish (each commits its
    /// own audit record before answering, so nothing is left to flush).
    public func shutdown(gracePeriod: Duration = .seconds(10)) async {
        maintenance.withLock { $0?.cancel() }
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
    case .full, .extra: .full
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
public func buildServer(_ configuration: Configuration, logger: Logger = Logger(label: "caresync"),
                        metrics: ServerMetrics = ServerMetrics()) throws -> CareSyncApplication {
    OpenFileLimit.ensureRoom(for: configuration.maxConnections, logger: logger)
    let database = try openDatabase(configuration)
    let store = try SQLiteSyncStore(database: database)
    var limits = APILimits()
    limits.maxItemsPerRequest = configuration.limits.samplesPerRequest
    limits.idempotencyRetention = TimeInterval(configuration.idempotencyRetentionHours) * 3600
    limits.tokenRequestsPerSecond = Double(configuration.rateLimits.tokenRequestsPerSecond)
    limits.tokenBurst = Double(configuration.rateLimits.tokenBurst)
    limits.failedAuthPerSecond = Double(configuration.rateLimits.failedAuthPerMinute) / 60
    limits.failedAuthBurst = Double(configuration.rateLimits.failedAuthBurst)
    // Idempotency-Key answers are the store's own records, written in the write's transaction.
    let api = CareSyncAPI(store: store, access: SQLiteAccessStore(database: database), limits: limits, logger: logger,
                          metrics: metrics)
    let responder = api.makeRouter().wrapped(by: RequestLogMiddleware(level: .info))
    let http = HTTPServer(configuration: configuration.httpConfiguration, responder: responder,
                          headFilter: api.makeHeadFilter(), logger: logger)
    metrics.onCollect { [http] in $0.setOpenConnections(http.connectionCount) }
    return CareSyncApplication(api: api, http: http, database: database, configuration: configuration, logger: logger)
}

extension Configuration {
    /// The listener's settings.
    public var httpConfiguration: HTTPServer.Configuration {
        HTTPServer.Configuration(
            host: host, port: port, maxConnections: maxConnections, maxBodySize: limits.bodyBytes,
            maxRequestLineLength: limits.requestLineBytes, maxHeaderSize: limits.headerBytes, maxHeaderCount: limits.headerCount,
            headerReadTimeout: timeouts.headerRead, bodyReadTimeout: timeouts.bodyRead, idleTimeout: timeouts.idle,
            writeTimeout: timeouts.write, gzipThreshold: gzipThresholdBytes, eventLoopCount: workerCount)
    }
}

/// Applies pending migrations to the configured database; returns the names applied.
public func migrateDatabase(_ configuration: Configuration) throws -> [String] {
    let url = URL(fileURLWithPath: configuration.databasePath)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let database = try Database(path: configuration.databasePath)
    return try Migrator(directory: URL(fileURLWithPath: configuration.migrationsDirectory)).migrate(database)
}

/// Operator actions over the configured database (migrated first).
public func makeAccessAdmin(_ configuration: Configuration) throws -> AccessAdmin {
    AccessAdmin(store: SQLiteAccessStore(database: try openDatabase(configuration)))
}

/// Copies the configured database to `path` through SQLite's online backup.
public func backupDatabase(_ configuration: Configuration, to path: String) throws {
    let store = try SQLiteSyncStore(database: try openDatabase(configuration))
    _ = try store.backup(to: path)
}
