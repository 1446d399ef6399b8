import CareSyncCore
import CareSyncHTTP

/// How a controller calls its stores: blocking work off the cooperative pool, awaited writes timed in the metrics;
/// store errors come back as API errors.
struct StoreCalls: Sendable {
    let executor: BlockingExecutor
    let metrics: ServerMetrics

    /// Runs blocking store work off the cooperative pool; store errors become API errors.
    func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        do {
            return try await executor.run(body)
        } catch let e as SyncError {
            throw HTTPError.from(e)
        } catch is ErasedPatientWrite {
            throw HTTPError.notFound("No such patient.")
        }
    }

    /// Awaits a store write that blocks no thread, records its duration; store errors become API errors.
    func timedWrite<T: Sendable>(_ operation: String, _ body: () async throws -> T) async throws -> T {
        let started = ContinuousClock.now
        defer { metrics.recordDatabaseWrite(operation: operation, duration: ContinuousClock.now - started) }
        do {
            return try await body()
        } catch let e as SyncError {
            throw HTTPError.from(e)
        } catch is ErasedPatientWrite {
            throw HTTPError.notFound("No such patient.")
        }
    }
}
