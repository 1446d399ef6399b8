import Foundation

/// A validated statistics query, resolved for the engine: bucket boundaries in milliseconds and the output unit.
///
/// Building one checks every rule of api.md and throws `SyncError.validationFailed` naming each
/// bad field, so callers validate before they fetch a single sample.
public struct StatisticsPlan: Hashable, Sendable {
    /// The query as given.
    public let query: StatisticsQuery
    /// The unit results are given in.
    public let unit: HealthUnit
    /// Bucket boundaries, ms since 1970: bucket `i` is `[bounds[i], bounds[i + 1])`; the first is the
    /// query's start and the last its end.
    public let bounds: [Int64]
    /// The query's start, ms since 1970.
    public var startMilliseconds: Int64 { bounds[0] }
    /// The query's end, ms since 1970.
    public var endMilliseconds: Int64 { bounds[bounds.count - 1] }
    /// The number of buckets.
    public var bucketCount: Int { bounds.count - 1 }

    /// Validates `query` and computes its buckets; throws `SyncError.validationFailed`.
    public init(_ query: StatisticsQuery) throws {
        let problems = query.problems()
        // Category durations are times, in seconds unless asked otherwise.
        guard problems.isEmpty, let zone = TimeZone(identifier: query.timeZone),
              let canonical = query.type.canonicalUnit ?? .some(.second) else {
            throw SyncError.validationFailed(problems)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let buckets = BucketCalendar(calendar: calendar, interval: query.interval,
                                     anchor: query.anchorDate ?? BucketCalendar.defaultAnchor(in: calendar))
        guard let bounds = buckets.bounds(from: query.start, to: query.end, limit: StatisticsQuery.maximumBucketCount) else {
            throw SyncError.validationFailed([ValidationProblem(
                index: nil, field: "interval",
                message: "too many buckets (more than \(StatisticsQuery.maximumBucketCount)): use a longer interval or a shorter range")])
        }
        self.query = query
        self.unit = query.unit ?? canonical
        self.bounds = bounds
    }

    /// The start of bucket `index`.
    public func bucketStart(_ index: Int) -> Date { SyncRules.date(milliseconds: bounds[index]) }
    /// The end of bucket `index`.
    public func bucketEnd(_ index: Int) -> Date { SyncRules.date(milliseconds: bounds[index + 1]) }
}
