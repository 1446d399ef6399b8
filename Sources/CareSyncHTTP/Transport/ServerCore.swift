import Logging
import Synchronization

/// What every connection of one server shares: configuration, pipeline, counters.
final class ServerCore: Sendable {
    let configuration: HTTPServer.Configuration
    let pipeline: RequestPipeline
    let logger: Logger
    /// Open connections (accepted and not yet closed).
    let connectionCount = Atomic<Int>(0)
    /// Requests being handled right now.
    let inFlight = Atomic<Int>(0)
    /// Set when shutdown begins: responses carry `Connection: close`.
    let draining = Atomic<Bool>(false)
    /// The cap, the share per client address and the probe reserve, decided at accept.
    let admission: ConnectionAdmission
    /// Told of every connection turned away (metrics).
    let onRefusal: @Sendable (ConnectionRefusal) -> Void

    init(configuration: HTTPServer.Configuration, pipeline: RequestPipeline, logger: Logger,
         onRefusal: @escaping @Sendable (ConnectionRefusal) -> Void = { _ in }) {
        self.onRefusal = onRefusal
        self.configuration = configuration
        self.pipeline = pipeline
        self.logger = logger
        admission = ConnectionAdmission(configuration: configuration)
    }

    /// Nanoseconds of a duration, for comparing with `DispatchTime.uptimeNanoseconds`.
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
