import Foundation

/// Every configuration key. The raw value is the dotted path in the JSON file
/// (`limits.bodyBytes` is `{"limits": {"bodyBytes": …}}`); ``environmentVariable`` derives from it.
public enum ConfigurationKey: String, Sendable, CaseIterable, Comparable {
    case host
    case port
    case database
    case databaseURL = "database.url"
    case sqliteSynchronous = "sqlite.synchronous"
    case migrationsDirectory
    case limitsBodyBytes = "limits.bodyBytes"
    case limitsSamplesPerRequest = "limits.samplesPerRequest"
    case limitsReportsPerPatient = "limits.reportsPerPatient"
    case limitsRequestLineBytes = "limits.requestLineBytes"
    case limitsHeaderBytes = "limits.headerBytes"
    case limitsHeaderCount = "limits.headerCount"
    case timeoutsHeaderReadSeconds = "timeouts.headerReadSeconds"
    case timeoutsBodyReadSeconds = "timeouts.bodyReadSeconds"
    case timeoutsIdleSeconds = "timeouts.idleSeconds"
    case timeoutsWriteSeconds = "timeouts.writeSeconds"
    case workers
    case maxConnections
    case maxConnectionsPerAddress
    case reservedProbeConnections
    case maxRequestsInFlight
    case maxParkedPolls
    case gzipThresholdBytes
    case gzipLevel
    case retentionTombstoneDays = "retention.tombstoneDays"
    case retentionIdempotencyHours = "retention.idempotencyHours"
    case alertsEvaluationSeconds = "alerts.evaluationSeconds"
    case rateLimitTokenRequestsPerSecond = "rateLimit.tokenRequestsPerSecond"
    case rateLimitTokenBurst = "rateLimit.tokenBurst"
    case rateLimitFailedAuthPerMinute = "rateLimit.failedAuthPerMinute"
    case rateLimitFailedAuthBurst = "rateLimit.failedAuthBurst"
    case rateLimitWaitsPerToken = "rateLimit.waitsPerToken"
    case streamKeepAliveSeconds = "stream.keepAliveSeconds"
    case streamLifetimeSeconds = "stream.lifetimeSeconds"
    case fhirPublicUrl = "fhir.publicUrl"
    case exportDirectory = "export.directory"
    case exportExpiryMinutes = "export.expiryMinutes"
    case enrolmentCodeMinutes = "enrolment.codeMinutes"
    case enrolmentPublicUrl = "enrolment.publicUrl"
    case enrolmentRedeemPerMinute = "enrolment.redeemPerMinute"
    case enrolmentRedeemBurst = "enrolment.redeemBurst"
    case publicOrigins
    case trustedProxies
    case sessionsIdleMinutes = "sessions.idleMinutes"
    case sessionsAbsoluteHours = "sessions.absoluteHours"
    case invitationsLifetimeHours = "invitations.lifetimeHours"
    case webAuthnRelyingPartyID = "webAuthn.relyingPartyID"
    case webAuthnRelyingPartyName = "webAuthn.relyingPartyName"
    case webAuthnOrigins = "webAuthn.origins"
    case webhooksAllowPrivateAddresses = "webhooks.allowPrivateAddresses"
    case webhooksTimeoutSeconds = "webhooks.timeoutSeconds"
    case webhooksRetryInitialSeconds = "webhooks.retryInitialSeconds"
    case webhooksRetryMaxSeconds = "webhooks.retryMaxSeconds"
    case webhooksRetryForHours = "webhooks.retryForHours"
    case webhooksDeliveryRetentionDays = "webhooks.deliveryRetentionDays"
    case webhooksMaxPendingDeliveries = "webhooks.maxPendingDeliveries"
    case oidcIssuer = "oidc.issuer"
    case oidcClientId = "oidc.clientId"
    case oidcClientSecret = "oidc.clientSecret"
    case oidcClientSecretFile = "oidc.clientSecretFile"
    case oidcRedirectUri = "oidc.redirectUri"
    case oidcDisplayName = "oidc.displayName"
    case oidcScopes = "oidc.scopes"
    case oidcClockSkewSeconds = "oidc.clockSkewSeconds"
    case logLevel = "log.level"
    case logFormat = "log.format"

    /// The prefix of every CareSync environment variable.
    public static let environmentPrefix = "CARESYNC_"
    /// The environment variable naming the config file (not a setting itself).
    public static let configFileVariable = "CARESYNC_CONFIG"

    /// The environment variable: `limits.bodyBytes` → `CARESYNC_LIMITS_BODY_BYTES`.
    public var environmentVariable: String {
        var name = Self.environmentPrefix
        for character in rawValue {
            if character == "." {
                name.append("_")
            } else if character.isUppercase {
                name.append("_")
                name.append(character)
            } else {
                name.append(contentsOf: character.uppercased())
            }
        }
        return name
    }

    /// The command-line spelling: `limits.bodyBytes` → `limits-body-bytes`.
    public var flagName: String {
        String(environmentVariable.dropFirst(Self.environmentPrefix.count)).lowercased()
            .replacingOccurrences(of: "_", with: "-")
    }

    /// Finds a key by its dotted name or its flag spelling.
    public init?(name: String) {
        if let key = ConfigurationKey(rawValue: name) {
            self = key
        } else if let key = ConfigurationKey.allCases.first(where: { $0.flagName == name }) {
            self = key
        } else {
            return nil
        }
    }

    /// Orders keys as they are declared, so errors come out in a stable order.
    public static func < (lhs: ConfigurationKey, rhs: ConfigurationKey) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// One line documenting the key, its unit and its default.
    public var summary: String {
        switch self {
        case .host: "Address to listen on (the container image uses 0.0.0.0)."
        case .port: "TCP port, 0...65535; 0 picks a free port."
        case .database: "Path of the SQLite database file."
        case .databaseURL: "A postgresql:// URL: use the PostgreSQL store on that database instead of the SQLite file."
        case .sqliteSynchronous: "SQLite PRAGMA synchronous: off, normal, full or extra."
        case .migrationsDirectory: "Folder with the NNNN_name.sql migration files."
        case .limitsBodyBytes: "Largest request body in bytes, after gzip decompression (413)."
        case .limitsSamplesPerRequest: "Most samples or deletions in one request (413)."
        case .limitsReportsPerPatient: "Most weekly reports one patient may hold, all sources together (422 for one more)."
        case .limitsRequestLineBytes: "Longest request line in bytes (414)."
        case .limitsHeaderBytes: "Largest header section in bytes (431)."
        case .limitsHeaderCount: "Most header fields in one request (431)."
        case .timeoutsHeaderReadSeconds: "Seconds allowed to receive the request line and headers."
        case .timeoutsBodyReadSeconds: "Seconds allowed to receive the request body."
        case .timeoutsIdleSeconds: "Seconds an idle keep-alive connection stays open."
        case .timeoutsWriteSeconds: "Seconds allowed to send a response."
        case .workers: "Request-handling worker threads; 0 means one per CPU core."
        case .maxConnections: "Connections held open at once, long polls included."
        case .maxConnectionsPerAddress: "Connections held open at once from one client address (429 past it); 0 disables. Behind a proxy every client shares its address."
        case .reservedProbeConnections: "Of maxConnections, the last ones kept for /healthz, /readyz and /metrics (one request each); others get 503 there."
        case .maxRequestsInFlight: "Requests handled at once (503 past it); 0 means maxConnections, and any other value must be at least maxConnections, so parked long polls never take the slot of a write or /metrics."
        case .maxParkedPolls: "Long polls and event streams parked at once, whole server (429 past it); each holds a connection, so raise maxConnections with it."
        case .gzipThresholdBytes: "Smallest response body in bytes that is gzipped for clients that accept it."
        case .gzipLevel: "Effort of gzipped answers: 1 (fastest, the default) to 9; ISA-L's level 1 for 1, its level 2 above."
        case .retentionTombstoneDays: "Days tombstones are kept; older anchors answer 410 anchorExpired."
        case .retentionIdempotencyHours: "Hours an Idempotency-Key answer is replayed; at least 24."
        case .alertsEvaluationSeconds: "Seconds between evaluations of every patient's alert rules (commits are evaluated within 2 s); 0 turns automatic evaluation off."
        case .rateLimitTokenRequestsPerSecond: "Requests per second each token earns (429 past its budget); 0 disables."
        case .rateLimitTokenBurst: "Requests a token may send at once before its per-second budget applies."
        case .rateLimitFailedAuthPerMinute: "Failed authentications per minute each client address earns (429 past it); 0 disables."
        case .rateLimitFailedAuthBurst: "Failed authentications a client address may make at once."
        case .rateLimitWaitsPerToken: "Long polls and change-feed event streams one token may hold at once (429 past it); 0 disables."
        case .streamKeepAliveSeconds: "Seconds between keep-alive comments (or moved anchors) of an idle change-feed event stream."
        case .streamLifetimeSeconds: "Seconds a change-feed event stream lasts before it ends and the client resumes."
        case .fhirPublicUrl: "The public origin (https://caresync.example.org) of FHIR links; empty: http:// and the request's Host."
        case .exportDirectory: "Folder of FHIR bulk export files (made 0700); empty: <database>-exports beside the SQLite file, or the temporary folder's caresync-exports on PostgreSQL."
        case .exportExpiryMinutes: "Minutes (1...10080) a finished FHIR bulk export's files and status URL are kept; then they are deleted."
        case .enrolmentCodeMinutes: "Minutes (1...1440) a device enrolment code may be redeemed."
        case .enrolmentPublicUrl: "The public origin of enrolment links (https://caresync.example.org); empty: http:// and the request's Host."
        case .enrolmentRedeemPerMinute: "Enrolment redemption attempts per minute each client address earns (429 past it); 0 disables."
        case .enrolmentRedeemBurst: "Enrolment redemption attempts a client address may make at once."
        case .publicOrigins: "Comma-separated public origins of the web app (https://caresync.example.org): CSRF checks accept these, invitation links use the first; empty: the request's own."
        case .trustedProxies: "Comma-separated addresses or CIDR ranges of TLS proxies whose X-Forwarded-For and X-Forwarded-Proto are believed; empty: none."
        case .sessionsIdleMinutes: "Minutes (1...1440) a browser session may stay unused before it ends."
        case .sessionsAbsoluteHours: "Hours (1...168) after sign-in a browser session ends, however used."
        case .invitationsLifetimeHours: "Hours (1...720) an invitation link works."
        case .webAuthnRelyingPartyID: "The passkeys' relying-party id: the web app's host name or a registrable suffix of it (care.clinic.example); never an IP address."
        case .webAuthnRelyingPartyName: "The name authenticators show when a passkey is made."
        case .webAuthnOrigins: "Comma-separated origins passkey ceremonies may come from (https://care.clinic.example); empty: those of publicOrigins, else http://localhost:<port>."
        case .webhooksAllowPrivateAddresses: "true lets webhook URLs name loopback, private, link-local and unspecified addresses (refused by default)."
        case .webhooksTimeoutSeconds: "Whole seconds (1...300) one webhook delivery attempt may take before it counts as failed."
        case .webhooksRetryInitialSeconds: "Backoff ceiling in seconds of a webhook's first retry; it doubles per retry (full jitter)."
        case .webhooksRetryMaxSeconds: "Longest wait in seconds before a webhook retry."
        case .webhooksRetryForHours: "Hours after its first attempt a webhook delivery is retried before it is marked failed."
        case .webhooksDeliveryRetentionDays: "Days delivered and failed webhook deliveries are kept for replay."
        case .webhooksMaxPendingDeliveries: "Most deliveries (2...10000000) one webhook subscription keeps waiting; beyond it the oldest waiting are dropped."
        case .oidcIssuer: "OpenID Connect provider's issuer URL (https; http only on loopback), exactly as in its ID tokens; empty: OpenID Connect sign-in is off."
        case .oidcClientId: "CareSync's client id at the OpenID Connect provider (required with oidc.issuer)."
        case .oidcClientSecret: "The client secret of a confidential client (HTTP Basic at the token endpoint); empty: a public client, or oidc.clientSecretFile. Never logged."
        case .oidcClientSecretFile: "A file whose first line is the client secret (read at start-up), to keep it out of config files."
        case .oidcRedirectUri: "The redirect URI registered at the provider; empty: the first public origin (or the request's own) + /v1/oidc/callback."
        case .oidcDisplayName: "The label of the web app's OpenID Connect sign-in button."
        case .oidcScopes: "Space-separated scopes requested; must include openid."
        case .oidcClockSkewSeconds: "Seconds (0...600) the provider's clock may differ from ours when exp and iat are checked."
        case .logLevel: "Lowest log level: trace, debug, info, notice, warning, error or critical."
        case .logFormat: "Log format: text (development) or json (JSON lines, production)."
        }
    }
}
