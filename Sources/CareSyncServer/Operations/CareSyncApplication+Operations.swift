import Logging

extension CareSyncApplication {
    /// Starts what runs beside the listener: the tombstone retention job (at once, then hourly).
    /// `caresync serve` calls it after `start()` and stops it before `shutdown()`.
    public func startOperations(metrics: ServerMetrics, logger: Logger = Logger(label: "caresync.retention")) -> OperationsHandle {
        let retention = RetentionJob(
            store: api.store, retentionDays: configuration.tombstoneRetentionDays, metrics: metrics, logger: logger)
        retention.start()
        return OperationsHandle(retention: retention)
    }
}

/// The background work started by ``CareSyncApplication/startOperations(metrics:logger:)``.
public struct OperationsHandle: Sendable {
    /// The retention job.
    public let retention: RetentionJob

    /// Stops the background work and waits for a run in progress.
    public func stop() async {
        await retention.stop()
    }
}
