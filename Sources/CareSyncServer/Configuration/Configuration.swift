import Foundation
import Logging

/// Every setting of a CareSync server, with the defaults of the API contract.
///
/// Build one with ``Configuration/load(configFile:environment:flags:)``: a JSON file,
/// overlaid by `CARESYNC_*` environment variables, overlaid by command-line flags
/// (flag > environment > file > default). ``ConfigurationKey`` lists every key.
public struct Configuration: Sendable, Equatable {
    /// The address the server listens on.
    public var host: String = "127.0.0.1"
    /// The TCP port; 0 picks a free port.
    public var port: Int = 8080
    /// The path of the SQLite database file.
    public var databasePath: String = "./data/caresync.sqlite"
    /// A `postgresql://` URL: the PostgreSQL store on that database instead of the SQLite file.
    public var databaseURL: String?
    /// SQLite's `PRAGMA synchronous` for the write connection.
    public var sqliteSynchronous: SQLiteSynchronous = .full
    /// The folder holding the `NNNN_name.sql` migration files.
    public var migrationsDirectory: String = "migrations"
    /// Request size limits.
    public var limits = Limits()
    /// Socket deadlines.
    public var timeouts = Timeouts()
    /// Request-handling worker threads; 0 means one per CPU core.
    public var workerCount: Int = 0
    /// Connections held open at once; more are refused until one closes.
    public var maxConnections: Int = 1024
    /// Connections held open at once from one client address; more get 429 and are closed. 0: no limit.
    public var maxConnectionsPerAddress: Int = 256
    /// Of `maxConnections`, the last ones kept for health probes (`/healthz`, `/readyz`, `/metrics`).
    public var reservedProbeConnections: Int = 8
    /// Requests handled at once (503 past it); 0: as many as `maxConnections`. Never below `maxConnections`
    /// (``Configuration/load(configFile:environment:flags:)`` refuses it): a connection holds one request at a time,
    /// so parked long polls can then never take the slot of a write or of `/metrics`.
    public var maxRequestsInFlight: Int = 0
    /// Long polls and event streams parked at once (429 past it).
    public var maxParkedPolls: Int = 10_000
    /// Responses of at least this many bytes are gzipped for clients that accept gzip.
    public var gzipThresholdBytes: Int = 1024
    /// zlib's compression level for gzipped answers: 1 (fastest) to 9 (smallest).
    public var gzipLevel: Int = 1
    /// Tombstones older than this are purged; older anchors answer 410 `anchorExpired`.
    public var tombstoneRetentionDays: Int = 90
    /// How long a response is kept for replay under its `Idempotency-Key` (at least 24).
    public var idempotencyRetentionHours: Int = 24
    /// Seconds between evaluations of every patient's alert rules (docs/alerts.md); 0 turns automatic evaluation off.
    public var alertEvaluationSeconds: Int = 300
    /// Request budgets per token and failed-authentication budgets per client address (429 past them).
    public var rateLimits = RateLimits()
    /// Change-feed event streams: keep-alive interval and lifetime.
    public var stream = StreamSettings()
    /// Webhook deliveries to clinic systems: the address guard, the attempt timeout, the retry schedule.
    public var webhooks = Webhooks()
    /// The public origin of FHIR links (`https://caresync.example.org`); empty: `http://` and the request's `Host`.
    public var fhirPublicUrl = ""
    /// The folder of FHIR bulk export files; empty: next to the SQLite database (`<database>-exports`), or
    /// `caresync-exports` in the system's temporary folder on PostgreSQL.
    public var exportDirectory = ""
    /// Minutes a finished bulk export's files and status URL are kept before they are deleted.
    public var exportExpiryMinutes = 60
    /// Device enrolment: code lifetime, the origin of enrolment links, the redemption budget per client address.
    public var enrolment = Enrolment()
    /// The public origins of the web app (`https://caresync.example.org`); empty: each request's own.
    public var publicOrigins: [String] = []
    /// Addresses or CIDR ranges of the proxies whose `X-Forwarded-*` headers are believed.
    public var trustedProxies: [AddressRange] = []
    /// Browser session timeouts and the invitation lifetime.
    public var sessions = SessionPolicy()
    /// Passkeys: the relying-party id and name, and the origins ceremonies may come from.
    public var webAuthn = WebAuthnSettings()
    /// Sign-in with a clinic's OpenID Connect provider; off while no issuer is set.
    public var oidc = OpenIDConnectSettings()
    /// The lowest log level written.
    public var logLevel: Logger.Level = .info
    /// Log lines as readable text (development) or JSON lines (production).
    public var logFormat: LogFormat = .text

    /// The defaults of the API contract.
    public init() {}

    /// Device enrolment settings.
    public struct Enrolment: Sendable, Equatable {
        /// Minutes a code may be redeemed.
        public var codeMinutes: Int = 15
        /// The public origin of enrolment links; empty: `http://` and the request's `Host`.
        public var publicUrl = ""
        /// Redemption attempts per minute a client address earns; 0 disables the limit.
        public var redeemPerMinute: Int = 10
        /// Redemption attempts a client address may make at once.
        public var redeemBurst: Int = 10
        /// The defaults.
        public init() {}
    }

    /// Request size limits (413, 414 and 431 when exceeded).
    public struct Limits: Sendable, Equatable {
        /// The largest request body, after gzip decompression.
        public var bodyBytes: Int = 8 * 1024 * 1024
        /// The most samples or deletions in one request.
        public var samplesPerRequest: Int = 5_000
        /// The most weekly reports one patient may hold (every source together): about 190 years of one report a week.
        public var reportsPerPatient: Int = 10_000
        /// The longest request line (method, target, version).
        public var requestLineBytes: Int = 8 * 1024
        /// The largest header section.
        public var headerBytes: Int = 16 * 1024
        /// The most header fields.
        public var headerCount: Int = 100
        /// The contract's default limits.
        public init() {}
    }

    /// Token buckets: generous defaults that stop a runaway client, never a busy one (0 disables).
    public struct RateLimits: Sendable, Equatable {
        /// Requests per second a token earns.
        public var tokenRequestsPerSecond: Int = 50_000
        /// Requests a token may spend at once.
        public var tokenBurst: Int = 100_000
        /// Failed authentications per minute a client address earns.
        public var failedAuthPerMinute: Int = 600
        /// Failed authentications a client address may spend at once.
        public var failedAuthBurst: Int = 100
        /// Long polls and event streams one token may hold at once (0: no limit).
        public var waitsPerToken: Int = 16
        /// The default budgets.
        public init() {}
    }

    /// Change-feed event streams (`Accept: text/event-stream`).
    public struct StreamSettings: Sendable, Equatable {
        /// How often an idle stream sends a keep-alive comment, or the moved anchor.
        public var keepAlive: Duration = .seconds(15)
        /// How long a stream lasts before it ends and the client resumes.
        public var lifetime: Duration = .seconds(300)
        /// The defaults.
        public init() {}
    }

    /// Webhook deliveries (docs/api.md "Webhooks").
    public struct Webhooks: Sendable, Equatable {
        /// Lets subscriptions name loopback, private, link-local and unspecified addresses (refused by default).
        public var allowPrivateAddresses = false
        /// How long one attempt may take before it counts as failed (whole seconds, as `webhooks.timeoutSeconds` takes them).
        public var timeout: Duration = .seconds(10)
        /// The first retry's backoff ceiling; it doubles with each further retry (full jitter: a random wait up to it).
        public var retryInitial: Duration = .seconds(5)
        /// The most any retry waits.
        public var retryMax: Duration = .seconds(3600)
        /// How long after its first attempt a delivery is retried before it is marked failed.
        public var retryForHours = 72
        /// How long delivered and failed deliveries are kept, so they can be replayed.
        public var deliveryRetentionDays = 7
        /// The most deliveries one subscription keeps waiting; beyond it the oldest waiting ones are dropped.
        public var maxPendingDeliveries = 10_000
        /// The defaults.
        public init() {}
    }

    /// Socket deadlines: a slow client is cut off, never waited on forever.
    public struct Timeouts: Sendable, Equatable {
        /// Time allowed to receive the request line and headers.
        public var headerRead: Duration = .seconds(10)
        /// Time allowed to receive the whole body.
        public var bodyRead: Duration = .seconds(30)
        /// Time an idle keep-alive connection stays open.
        public var idle: Duration = .seconds(60)
        /// Time allowed to send a response.
        public var write: Duration = .seconds(30)
        /// The default deadlines.
        public init() {}
    }

    /// SQLite's `PRAGMA synchronous` levels.
    public enum SQLiteSynchronous: String, Sendable, Equatable, CaseIterable {
        /// No fsync: fast, loses transactions on power loss.
        case off
        /// In WAL mode, durable across crashes but not power loss.
        case normal
        /// Every commit is fsynced: no acknowledged write is lost.
        case full
        /// Like `full`, and also syncs the directory.
        case extra
    }

    /// How log lines are written.
    public enum LogFormat: String, Sendable, Equatable, CaseIterable {
        /// One readable line per event, for a terminal.
        case text
        /// One JSON object per line, for a log collector.
        case json
    }
}

extension Configuration {
    /// The in-flight limit in force: ``maxRequestsInFlight``, or ``maxConnections`` when that is 0.
    public var effectiveMaxRequestsInFlight: Int { maxRequestsInFlight > 0 ? maxRequestsInFlight : maxConnections }

    /// The worker count to use: ``workerCount``, or the number of active CPU cores when it is 0.
    public var effectiveWorkerCount: Int {
        workerCount > 0 ? workerCount : max(1, ProcessInfo.processInfo.activeProcessorCount)
    }
}
