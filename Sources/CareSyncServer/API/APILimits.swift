import Foundation

/// Request limits and long-poll bounds the API enforces (the HTTP layer enforces byte limits).
public struct APILimits: Sendable, Hashable {
    /// Most samples or deletions in one request; more is 413.
    public var maxItemsPerRequest = 5000
    /// The most weekly reports one patient may hold; a new one past it is 422.
    public var maxReportsPerPatient = 10_000
    /// The feed page size when `limit` is absent.
    public var defaultPageLimit = 500
    /// The largest `limit`.
    public var maxPageLimit = 5000
    /// The longest `wait`, seconds.
    public var maxWaitSeconds = 60
    /// How long an idempotent reply is kept.
    public var idempotencyRetention: TimeInterval = 24 * 3600
    /// Most long polls parked at once; more is 429 with Retry-After.
    public var maxParkedPolls = 10_000
    /// Most long polls and event streams one token may hold at once; more is 429 with Retry-After. 0: no limit.
    public var maxWaitsPerToken = 16
    /// How often an idle event stream sends a keep-alive comment (or the moved anchor).
    public var streamKeepAlive: Duration = .seconds(15)
    /// How long an event stream lasts before it ends and the client resumes.
    public var streamLifetime: Duration = .seconds(300)
    /// Whether webhook URLs may name loopback, private, link-local and unspecified addresses.
    public var allowPrivateWebhookAddresses = false
    /// The public origin of FHIR links; nil: `http://` and the request's `Host`.
    public var fhirPublicURL: String?
    /// The folder of bulk export files; nil: `caresync-exports` in the system's temporary folder.
    public var exportDirectory: String?
    /// Seconds a finished bulk export's files and status are kept.
    public var exportExpiry: TimeInterval = 3600
    /// The contract's defaults.
    /// Requests per second a token earns; 0 disables the per-token limit.
    public var tokenRequestsPerSecond: Double = 50_000
    /// Requests a token may spend at once.
    public var tokenBurst: Double = 100_000
    /// Failed authentications per second a client address earns; 0 disables that limit.
    public var failedAuthPerSecond: Double = 10
    /// Failed authentications a client address may spend at once.
    public var failedAuthBurst: Double = 100
    /// Failed sign-ins per second one account earns; 0 disables that limit.
    public var failedSignInPerAccountPerSecond: Double = 10.0 / 60
    /// Failed sign-ins one account may spend at once.
    public var failedSignInPerAccountBurst: Double = 10
    /// Session timeouts and invitation lifetime.
    public var sessions = SessionPolicy()
    /// The proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed.
    public var trustedProxies: [AddressRange] = []
    /// The public origins (`https://caresync.example.org`) of browser pages: CSRF checks accept these, and
    /// invitation links start with the first; empty: the request's own origin.
    public var publicOrigins: [String] = []
    /// Passkeys' relying party (`webAuthn.*`).
    public var webAuthn = WebAuthnSettings()
    /// Sign-in with the clinic's OpenID Connect provider (off without an issuer) and its client secret (nil: public client).
    public var openIDConnect = OpenIDConnectSettings()
    /// The OpenID Connect client secret, resolved from `oidc.clientSecret` or its file; nil: a public client.
    public var openIDConnectSecret: String?
    public init() {}
}
