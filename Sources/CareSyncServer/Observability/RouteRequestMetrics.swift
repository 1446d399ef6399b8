import CareSyncLocking
import Prometheus

/// The request counters and duration histogram of one route and method, each looked up in the registry once,
/// at the route's first answer (so `/metrics` lists only routes that were asked). Recording a request is then a
/// dictionary read and two atomic adds, not two registry lookups that build and hash label sets under the
/// registry's lock.
public final class RouteRequestMetrics: Sendable {
    private let metrics: ServerMetrics
    private let route: String
    private let method: String
    /// The histogram once made, and the counters by status code (a handful per route).
    private let made = Locked<(duration: DurationHistogram?, counters: [Int: Counter])>((nil, [:]))

    /// The metrics of `route` (a template) and `method` in `metrics`' registry.
    init(metrics: ServerMetrics, route: String, method: String) {
        self.metrics = metrics
        self.route = route
        self.method = method
    }

    /// Counts one finished request with `status` and records its duration.
    public func record(status: Int, duration elapsed: Duration) {
        let (counter, duration) = made.withLock { made in
            let duration = made.duration ?? metrics.requestDurationHistogram(route: route, method: method)
            made.duration = duration
            if let counter = made.counters[status] { return (counter, duration) }
            let counter = metrics.requestCounter(route: route, method: method, status: status)
            made.counters[status] = counter
            return (counter, duration)
        }
        counter.increment()
        duration.record(elapsed)
    }
}
