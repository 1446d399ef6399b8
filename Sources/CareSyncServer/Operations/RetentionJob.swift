import CareSyncCore
import CareSyncLocking
import Foundation
import Logging

/// The background retention job: purges tombstones older than `retention.tombstoneDays`, at start
/// and then every `interval`, on the instance holding the `LeasedJob.retention` lease (others skip each run).
/// Anchors below the purge horizon then answer 410 `anchorExpired`, so a client that could have missed a
/// purged deletion restarts from no anchor.
public final class RetentionJob: Sendable {
    /// How long tombstones are kept.
    public let retention: Duration
    /// Time between runs.
    public let interval: Duration
    private let store: any SyncStore
    private let clock: ServerClock
    private let metrics: ServerMetrics?
    private let logger: Logger
    private let task = Locked<Task<Void, Never>?>(nil)

    /// A job over `store`, keeping tombstones `retentionDays` days (by `clock`'s wall time) and running every `interval`.
    public init(
        store: any SyncStore, retentionDays: Int, interval: Duration = .seconds(3600),
        metrics: ServerMetrics? = nil, logger: Logger = Logger(label: "caresync.retention"), clock: ServerClock
    ) {
        self.store = store
        self.retention = .seconds(Int64(retentionDays) * 86_400)
        self.interval = interval
        self.metrics = metrics
        self.logger = logger
        self.clock = clock
    }

    /// The oldest deletion time kept at `date`.
    public func horizon(at date: Date) -> Date {
        date.addingTimeInterval(-TimeInterval(retention.components.seconds))
    }

    /// Purges once when this instance holds the retention lease; returns how many tombstones went, or nil when
    /// another instance holds it (the run is skipped). Failures are logged and rethrown.
    @discardableResult
    public func runOnce() throws -> Int? {
        let horizon = horizon(at: clock.now())
        do {
            guard let purged = try store.runLeased(.retention, logger: logger, { try store.purgeTombstones(before: horizon) }) else {
                return nil
            }
            metrics?.recordTombstonesPurged(purged)
            logger.info("retention.purged", metadata: [
                "retention.tombstones": .stringConvertible(purged),
                "retention.horizon": .string(ISO8601DateFormatter().string(from: horizon)),
            ])
            return purged
        } catch {
            logger.error("retention.failed", metadata: ["error.type": .string(String(describing: type(of: error)))])
            throw error
        }
    }

    /// Starts the periodic runs (the first one right away); a second call does nothing.
    public func start() {
        task.withLock { current in
            guard current == nil else { return }
            current = Task.detached(priority: .background) { [self] in
                while !Task.isCancelled {
                    do { try runOnce() } catch { /* logged by runOnce; the next run tries again */ }
                    do { try await Task.sleep(for: interval) } catch { return }
                }
            }
        }
    }

    /// Stops the periodic runs and waits for a run in progress to end.
    public func stop() async {
        let running = task.withLock { current -> Task<Void, Never>? in
            defer { current = nil }
            return current
        }
        running?.cancel()
        await running?.value
    }
}
