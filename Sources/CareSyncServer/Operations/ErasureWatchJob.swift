import CareSyncCore
import CareSyncLocking
import Logging

/// Notices erasures nobody told this instance of, such as `caresync patient erase` run in another process on the same
/// SQLite file: every `interval` it reads how many ids were erased, and when that number grew since the last look,
/// the notifier's `erased(nil)` makes this instance forget every reach it proved and every page it read ahead, so the
/// erased patient's paths answer 404 here too. (The API's erasure tells its own instance at once; PostgreSQL's tells
/// the others through its listener: this is the rest.)
final class ErasureWatchJob: Sendable {
    /// Time between looks.
    let interval: Duration
    private let erasure: any ErasureStore
    private let notifier: ChangeNotifier
    private let executor: BlockingExecutor
    private let logger: Logger
    private let seen = Locked<Int?>(nil)
    private let task = Locked<Task<Void, Never>?>(nil)

    /// A watch of `erasure`'s count every `interval`, telling `notifier`; its reads on `executor`.
    init(erasure: any ErasureStore, notifier: ChangeNotifier, executor: BlockingExecutor, logger: Logger,
         interval: Duration = .seconds(5)) {
        self.erasure = erasure; self.notifier = notifier; self.executor = executor; self.logger = logger; self.interval = interval
    }

    /// Reads the count once; answers whether it grew since the last look (then every reach was forgotten). The first
    /// look only notes it.
    @discardableResult
    func look() throws -> Bool {
        let count = try erasure.erasedCount()
        let previous = seen.withLock { seen in defer { seen = count }; return seen }
        guard let previous, count > previous else { return false }
        notifier.erased(nil)
        return true
    }

    /// Starts looking: at once (the baseline), then every `interval`.
    func start() {
        task.withLock { current in
            guard current == nil else { return }
            current = Task.detached(priority: .background) { [self] in
                while !Task.isCancelled {
                    do {
                        if try await executor.run({ try self.look() }) { logger.info("erasure.noticed") }
                    } catch {
                        logger.error("erasure.watch_failed", metadata: ["error.type": .string(String(describing: type(of: error)))])
                    }
                    do { try await Task.sleep(for: interval) } catch { return }
                }
            }
        }
    }

    /// Stops looking and waits for a look under way.
    func stop() async {
        let running = task.withLock { current -> Task<Void, Never>? in
            defer { current = nil }
            return current
        }
        running?.cancel()
        await running?.value
    }
}
