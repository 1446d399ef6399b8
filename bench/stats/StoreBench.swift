import CareSyncCore
import CareSyncStore
import Foundation

/// The store path: the same year loaded through `SQLiteSyncStore.upsert`, then `statistics(patient:query:)`.
enum StoreBench {
    /// Opens a fresh store in `directory` with the repository's migrations.
    static func openStore(in directory: URL) throws -> SQLiteSyncStore {
        let migrations = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("migrations")
        return try SQLiteSyncStore(path: directory.appendingPathComponent("stats-bench.sqlite").path,
                                   migrationsDirectory: migrations)
    }

    /// Writes `input`'s rows for `patient` in batches of 5,000 (the API's limit), one source per batch.
    static func load(_ input: StatisticsInput, patient: String, into store: SQLiteSyncStore) throws {
        var bySource: [Int32: [SampleInput]] = [:]
        let now = Date()
        for row in input.rows {
            bySource[row.source, default: []].append(SampleInput(
                type: .stepCount, value: row.value, start: SyncRules.date(milliseconds: row.start),
                end: SyncRules.date(milliseconds: row.end)))
            if bySource[row.source]!.count == 5_000 {
                _ = try store.upsert(bySource[row.source]!, patient: patient, source: input.sources[Int(row.source)], now: now)
                bySource[row.source] = []
            }
        }
        for (source, samples) in bySource where !samples.isEmpty {
            _ = try store.upsert(samples, patient: patient, source: input.sources[Int(source)], now: now)
        }
    }

    /// Seconds since `start`, for setup lines.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
