import Foundation
@testable import CareSyncCore

/// Test-only builders for statistics queries and inputs.
enum StatisticsFixtures {
    /// An RFC 3339 date with offset; traps on a typo so a test cannot silently use a wrong date.
    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: text) else { fatalError("bad test date \(text)") }
        return date
    }

    /// A query with test defaults: steps, day buckets, cumulative sum.
    static func makeQuery(type: SampleType = .stepCount, start: String, end: String,
                          interval: StatisticsInterval = .day, anchorDate: String? = nil, timeZone: String = "UTC",
                          options: StatisticsOptions = .cumulativeSum, unit: String? = nil,
                          excludeUserEntered: Bool = false, sources: Set<String>? = nil,
                          priority: [String] = []) -> StatisticsQuery {
        StatisticsQuery(type: type, start: date(start), end: date(end), interval: interval,
                        anchorDate: anchorDate.map(date), timeZone: timeZone, options: options,
                        unit: unit.map { HealthUnit.named($0)! }, excludeUserEntered: excludeUserEntered,
                        sources: sources, priority: priority)
    }

    /// One sample as (source, start, end, value, userEntered).
    struct Row {
        var source = "phone"
        var start: String
        var end: String
        var value: Double
        var userEntered = false
    }

    /// An input holding `rows` in the given order.
    static func makeInput(_ rows: [Row]) -> StatisticsInput {
        var input = StatisticsInput()
        for row in rows {
            let source = input.sourceIndex(row.source)
            input.append(StatisticsRow(start: SyncRules.milliseconds(date(row.start)), end: SyncRules.milliseconds(date(row.end)),
                                       value: row.value, source: source, userEntered: row.userEntered))
        }
        return input
    }

    /// Runs a query over rows; throws what validation throws.
    static func run(_ query: StatisticsQuery, _ rows: [Row]) throws -> StatisticsCollection {
        StatisticsEngine.run(try StatisticsPlan(query), input: makeInput(rows))
    }

    /// The fields named by a validation failure, or [] when `body` does not throw one.
    static func failingFields(_ body: () throws -> Void) -> [String] {
        do {
            try body()
            return []
        } catch let SyncError.validationFailed(problems) {
            return problems.map(\.field)
        } catch {
            return ["unexpected \(error)"]
        }
    }
}

/// True when two doubles agree to a relative 1e-9 (absolute 1e-9 near zero).
func close(_ a: Double?, _ b: Double?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
}
