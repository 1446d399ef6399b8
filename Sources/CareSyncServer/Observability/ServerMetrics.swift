import CareSyncLocking
import Prometheus

/// CareSync's metrics, kept in one Prometheus registry that `/metrics` renders.
///
/// Create one per server; tests create their own, so no global state is shared.
/// Labels are bounded: `route` is a route template (`/v1/patients/{patientId}/samples`),
/// never a concrete path, so patient ids never become label values.
public final class ServerMetrics: Sendable {
    /// The registry every metric lives in.
    public let registry: PrometheusCollectorRegistry

    /// Request latency buckets: 1 ms to 60 s (long polls wait up to 60 s).
    public static let latencyBuckets: [Duration] = [
        .milliseconds(1), .microseconds(2_500), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
        .microseconds(2_500_000), .seconds(5), .seconds(10), .seconds(30), .seconds(60),
    ]

    /// Database write buckets: 100 µs to 5 s.
    public static let databaseBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2_500),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
    ]

    /// Run before each exposition, to sample gauges owned elsewhere (such as the connection count).
    private let collectors = Locked<[@Sendable (ServerMetrics) -> Void]>([])
    private let openConnections: Gauge
    private let parkedLongPolls: Gauge
    private let openEventStreams: Gauge
    private let feedPages: Counter
    private let feedPagesAhead: Counter
    private let tombstonesPurged: Counter

    /// Metrics in `registry` (a fresh one by default).
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        openConnections = registry.makeGauge(descriptor: Self.describe(MetricName.openConnections, "Open client connections."))
        parkedLongPolls = registry.makeGauge(descriptor: Self.describe(
            MetricName.parkedLongPolls, "Change-feed requests waiting for a change (wait=)."))
        openEventStreams = registry.makeGauge(descriptor: Self.describe(
            MetricName.openEventStreams, "Change-feed event streams open (Accept: text/event-stream)."))
        feedPages = registry.makeCounter(descriptor: Self.describe(MetricName.feedPagesServed, "Change-feed pages answered."))
        feedPagesAhead = registry.makeCounter(descriptor: Self.describe(
            MetricName.feedPagesReadAhead, "Change-feed pages answered from a read made ahead, while the page before was sent."))
        tombstonesPurged = registry.makeCounter(descriptor: Self.describe(
            MetricName.tombstonesPurged, "Tombstones removed by the retention job."))
    }

    /// Counts one finished request and records its duration (a registry lookup each time: routes mounted by
    /// `makeRouter` keep theirs in a ``RouteRequestMetrics``).
    public func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        requestCounter(route: route, method: method, status: status).increment()
        requestDurationHistogram(route: route, method: method).record(duration)
    }

    /// The recorder of one route template and method, for a router to keep.
    public func requests(route: String, method: String) -> RouteRequestMetrics {
        RouteRequestMetrics(metrics: self, route: route, method: method)
    }

    /// The finished-request counter of one route template, method and status.
    func requestCounter(route: String, method: String, status: Int) -> Counter {
        registry.makeCounter(
            descriptor: Self.describe(
                MetricName.httpRequests, "Finished HTTP requests by route template, method and status."),
            labels: [("route", route), ("method", method), ("status", String(status))])
    }

    /// The request-duration histogram of one route template and method.
    func requestDurationHistogram(route: String, method: String) -> DurationHistogram {
        registry.makeDurationHistogram(
            descriptor: Self.describe(
                MetricName.httpRequestDuration, "HTTP request duration by route template and method."),
            labels: [("route", route), ("method", method)], buckets: Self.latencyBuckets)
    }

    /// A client connection was accepted.
    public func connectionOpened() { openConnections.increment() }
    /// A client connection was closed.
    public func connectionClosed() { openConnections.decrement() }
    /// A change-feed request started waiting for a change.
    public func longPollParked() { parkedLongPolls.increment() }
    /// A waiting change-feed request was answered or gave up.
    public func longPollUnparked() { parkedLongPolls.decrement() }
    /// A change-feed event stream opened.
    public func eventStreamOpened() { openEventStreams.increment() }
    /// A change-feed event stream ended.
    public func eventStreamClosed() { openEventStreams.decrement() }
    /// A change-feed page was answered.
    public func feedPageServed() { feedPages.increment() }
    /// A change-feed page was answered from a read made ahead (`PagesAhead`).
    public func feedPageReadAhead() { feedPagesAhead.increment() }
    /// The retention job removed `count` tombstones.
    public func recordTombstonesPurged(_ count: Int) { tombstonesPurged.increment(by: Int64(count)) }

    /// Records how long one write transaction took; `operation` is a small fixed name (`samples`, `report`).
    public func recordDatabaseWrite(operation: String, duration: Duration) {
        registry.makeDurationHistogram(
            descriptor: Self.describe(
                MetricName.databaseWriteDuration, "Database write transaction duration by operation."),
            labels: [("operation", operation)], buckets: Self.databaseBuckets
        ).record(duration)
    }

    /// Counts samples written with one outcome (`inserted`, `replaced`, `ignored`, `deleted`).
    public func recordSamplesIngested(_ count: Int, outcome: String) {
        guard count > 0 else { return }
        registry.makeCounter(
            descriptor: Self.describe(MetricName.samplesIngested, "Samples written by outcome."),
            labels: [("outcome", outcome)]
        ).increment(by: Int64(count))
    }

    /// Counts one webhook delivery attempt by outcome (`delivered`, `retry`, `failed`).
    public func webhookAttempted(outcome: String) {
        registry.makeCounter(
            descriptor: Self.describe(MetricName.webhookAttempts, "Webhook delivery attempts, by outcome."),
            labels: [("outcome", outcome)]
        ).increment()
    }

    /// Counts one request refused by a rate limit (`token` or `failedAuth`).
    public func rateLimited(reason: String) {
        registry.makeCounter(
            descriptor: Self.describe(MetricName.rateLimited, "Requests refused with 429 by a rate limit, by reason."),
            labels: [("reason", reason)]
        ).increment()
    }

    /// Counts one connection turned away by the listener, by reason (`ConnectionRefusal`).
    public func connectionRefused(reason: String) {
        registry.makeCounter(
            descriptor: Self.describe(MetricName.connectionsRefused, "Connections turned away by the listener, by reason."),
            labels: [("reason", reason)]
        ).increment()
    }

    /// Sets the open-connection gauge to a count sampled from the listener.
    public func setOpenConnections(_ count: Int) { openConnections.set(Double(count)) }

    /// Registers `collect` to run before every exposition (to sample a gauge from its owner).
    public func onCollect(_ collect: @escaping @Sendable (ServerMetrics) -> Void) {
        collectors.withLock { $0.append(collect) }
    }

    /// The Prometheus text exposition (format 0.0.4) of every metric, for `GET /metrics`.
    public func exposition() -> [UInt8] {
        for collect in collectors.withLock({ $0 }) { collect(self) }
        return registry.emitToBuffer()
    }

    /// A descriptor for a full metric name with its help text.
    private static func describe(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    /// The `Content-Type` of ``exposition()``.
    public static let expositionContentType = "text/plain; version=0.0.4; charset=utf-8"
}
