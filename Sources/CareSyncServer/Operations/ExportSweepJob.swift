import Foundation
import CareSyncLocking

/// The sweep of expired bulk export files (`export.expiryMinutes` after an export ends): every `interval`, on every
/// instance (exports live in the memory of the instance that ran them, so no lease), off the cooperative pool.
final class ExportSweepJob: Sendable {
    /// Time between sweeps.
    let interval: Duration
    private let exports: BulkExports
    private let executor: BlockingExecutor
    private let task = Locked<Task<Void, Never>?>(nil)

    /// A sweep of `exports` every `interval`, its file work on `executor`.
    init(exports: BulkExports, executor: BlockingExecutor, interval: Duration = .seconds(60)) {
        self.exports = exports; self.executor = executor; self.interval = interval
    }

    /// Starts the periodic sweeps (the first one right away: it also removes a previous process's leftovers).
    func start() {
        task.withLock { current in
            guard current == nil else { return }
            current = Task.detached(priority: .background) { [exports, executor, interval] in
                while !Task.isCancelled {
                    _ = try? await executor.run { exports.sweep(now: exports.clock.now()) }
                    do { try await Task.sleep(for: interval) } catch { return }
                }
            }
        }
    }

    /// Stops the sweeps and waits for one under way.
    func stop() async {
        let running = task.withLock { current -> Task<Void, Never>? in
            defer { current = nil }
            return current
        }
        running?.cancel()
        await running?.value
    }
}
