/// A background job that must run on one instance at a time, named in its lease.
public struct LeasedJob: Hashable, Sendable, CustomStringConvertible {
    /// The job's name in its lease key: lower case, no spaces.
    public let name: String

    /// A job called `name`.
    public init(_ name: String) { self.name = name }

    /// The webhook dispatcher (fan-out, deliveries, purge of old deliveries).
    public static let webhooks = LeasedJob("webhooks")
    /// The tombstone purge (`RetentionJob`).
    public static let retention = LeasedJob("retention")
    /// The expiry of idempotency records.
    public static let idempotencyExpiry = LeasedJob("idempotency-expiry")
    /// The evaluation of alert rules (`AlertEvaluationJob`).
    public static let alerts = LeasedJob("alerts")
    /// Every job that takes a lease.
    public static let all: [LeasedJob] = [.webhooks, .retention, .idempotencyExpiry, .alerts]

    /// The name.
    public var description: String { name }
}

/// Leases of jobs that must run once per database, however many instances share it: a job runs only while its
/// instance holds the job's lease. Each job has a lease of its own, so different jobs may run on different instances.
public protocol JobLeases: Sendable {
    /// Whether this instance holds `job`'s lease now, taking it when free; ask again before each run (a lease
    /// is lost when its holder's database session ends, and another instance then takes it at its next ask).
    func acquireLease(_ job: LeasedJob) throws -> Bool
}
