import CareSyncLocking
import Logging

/// A background loop of this instance that needs no lease: runs `body` on the blocking executor at once, then every
/// `interval`, until stopped (the sweep of expired bulk export files, the watch for erasures made elsewhere).
final class PeriodicJob: Sendable {
    /// Shown in the log line of a failed run (`<name>.failed`).
    let name: String
    /// Time between runs.
    let interval: Duration
    private let executor: BlockingExecutor
    private let logger: Logger
    private let body: @Sendable () throws -> Void
    private let task = Locked<Task<Void, Never>?>(nil)

    /// `body` every `interval`, run on `executor`; a failed run is logged and the next one comes as planned.
    init(_ name: String, every interval: Duration, on executor: BlockingExecutor, logger: Logger,
         _ body: @escaping @Sendable () throws -> Void) {
        self.name = name; self.interval = interval; self.executor = executor; self.logger = logger; self.body = body
    }

    /// Starts the runs (the first one right away).
    func start() {
        task.withLock { current in
            guard current == nil else { return }
            current = Task.detached(priority: .background) { [self] in
                while !Task.isCancelled {
                    do {
                        try await executor.run(body)
                    } catch {
                        logger.error("\(name).failed", metadata: ["error.type": .string(String(describing: type(of: error)))])
                    }
                    do { try await Task.sleep(for: interval) } catch { return }
                }
            }
        }
    }

    /// Stops the runs and waits for one under way.
    func stop() async {
        let running = task.withLock { current -> Task<Void, Never>? in
            defer { current = nil }
            return current
        }
        running?.cancel()
        await running?.value
    }
}
