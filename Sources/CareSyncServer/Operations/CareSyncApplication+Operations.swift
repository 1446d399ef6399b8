import Logging

extension CareSyncApplication {
    /// Starts what runs beside the listener: the tombstone retention job, and sampling of the open
    /// connection count into `metrics`. `caresync serve` calls it after `start()` and stops it after `shutdown()`.
    public func startOperations(metrics: ServerMetrics, logger: Logger = Logger(label: "caresync.retention")) -> OperationsHandle {
        let http = self.http
        metrics.onCollect { $0.setOpenConnections(http.connectionCount) }
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
