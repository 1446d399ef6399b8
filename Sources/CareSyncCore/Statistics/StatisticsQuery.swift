import Foundation

/// A statistics request: the server side of `HKStatisticsCollectionQuery` (api.md "Statistics").
///
/// Buckets of `interval` cover `[start, end)`, phased by `anchorDate` in the calendar of `timeZone`;
/// the first and last bucket are cut to the range. Validate it with `StatisticsPlan(_:)`.
public struct StatisticsQuery: Hashable, Sendable {
    /// The quantity type, or a category type with `durationByValue`; a correlation has no statistics (its
    /// components do). Build `unit` with `type.unit(_:)` (molar mass).
    public var type: SampleType
    /// The first instant counted.
    public var start: Date
    /// The instant after the last one counted; must be after `start`.
    public var end: Date
    /// The bucket length.
    public var interval: StatisticsInterval
    /// Any bucket boundary; nil means Monday 00:00 in `timeZone`.
    public var anchorDate: Date?
    /// The IANA time zone whose calendar the buckets follow.
    public var timeZone: String
    /// What to compute.
    public var options: StatisticsOptions
    /// The unit of the results; nil means the type's canonical unit.
    public var unit: HealthUnit?
    /// Leaves out samples whose metadata says `wasUserEntered == true`.
    public var excludeUserEntered: Bool
    /// Only samples of these sources; nil means every source.
    public var sources: Set<String>?
    /// Sources from highest to lowest priority; empty means overlapping sources add up.
    public var priority: [String]
    /// The correlations whose component of `type` counts (a token that may read only one component of a pair
    /// must not see the pair's value); nil means every correlation holding `type`.
    public var correlations: Set<SampleType>? = nil

    /// The correlations holding `type` whose component counts, with the component's position in each.
    public var countedCorrelations: [(correlation: SampleType, position: Int)] {
        type.correlations.filter { correlations?.contains($0.correlation) ?? true }
    }

    /// Whether a sample counts wherever it overlaps the range (cumulative sums, category durations), rather
    /// than in the bucket of its start (discrete figures).
    public var countsOverlap: Bool { type.isCumulative || type.kind == .category }

    /// The most buckets one query may ask for (a year of hours fits).
    public static let maximumBucketCount = 10_000

    /// A query with api.md's defaults: anchor Monday 00:00, UTC, canonical unit, every source, no priority.
    public init(type: SampleType, start: Date, end: Date, interval: StatisticsInterval,
                anchorDate: Date? = nil, timeZone: String = "UTC", options: StatisticsOptions,
                unit: HealthUnit? = nil, excludeUserEntered: Bool = false,
                sources: Set<String>? = nil, priority: [String] = []) {
        self.type = type; self.start = start; self.end = end; self.interval = interval
        self.anchorDate = anchorDate; self.timeZone = timeZone; self.options = options; self.unit = unit
        self.excludeUserEntered = excludeUserEntered; self.sources = sources; self.priority = priority
    }

    /// Every rule the query breaks, each naming its query field; empty when valid.
    func problems() -> [ValidationProblem] {
        var problems: [ValidationProblem] = []
        func problem(_ field: String, _ message: String) {
            problems.append(ValidationProblem(index: nil, field: field, message: message))
        }
        let aggregates = options.subtracting(.separateBySource)
        if type.kind == .category {
            if aggregates != .durationByValue {
                problem("type", "\(type.rawValue) is a category type; statistics need a quantity type, or "
                        + "options=durationByValue for the time in each of its values")
            } else if !priority.isEmpty {
                problem("priority", "durationByValue counts every source's time; pick sources with sources=, not priority")
            }
        } else if aggregates.contains(.durationByValue) {
            problem("options", "durationByValue is for category types; \(type.rawValue) is a quantity type")
        } else if type.kind == .correlation {
            problem("type", "\(type.rawValue) is a correlation; ask for the statistics of each component, "
                    + type.components.map(\.rawValue).joined(separator: " or ") + ", which count its samples too")
        } else if type.isCumulative {
            if aggregates != .cumulativeSum {
                problem("options", "\(type.rawValue) is cumulative: options must be cumulativeSum"
                        + (aggregates.isEmpty ? "" : ", not \(aggregates.names.joined(separator: ","))"))
            }
        } else if aggregates.isEmpty || !StatisticsOptions.discreteOptions.isSuperset(of: aggregates) {
            problem("options", "\(type.rawValue) is discrete: options must be discreteAverage, discreteMin, "
                    + "discreteMax or mostRecent" + (aggregates.contains(.cumulativeSum) ? ", not cumulativeSum" : ""))
        }
        if let unit, let canonical = type.canonicalUnit, !unit.isCompatible(with: canonical) {
            problem("unit", type.incompatibility(unit))
        }
        if let unit, type.kind == .category, unit.dimension != UnitDimension(.time) {
            problem("unit", "durations of category type '\(type.rawValue)' are times: use a unit such as 's', 'min' or 'hr', not '\(unit.symbol)'")
        }
        if TimeZone(identifier: timeZone) == nil {
            problem("timeZone", "unknown IANA time zone \(timeZone)")
        }
        let finite = abs(start.timeIntervalSince1970) < 1e14 && abs(end.timeIntervalSince1970) < 1e14
        if !finite || SyncRules.milliseconds(end) <= SyncRules.milliseconds(start) {
            problem("end", "end must be at least 1 ms after start")
        } else {
            let estimate = end.timeIntervalSince(start) / interval.minimumSeconds
            if estimate > Double(Self.maximumBucketCount) {
                problem("interval", "too many buckets (about \(Int(estimate.rounded(.up))), at most "
                        + "\(Self.maximumBucketCount)): use a longer interval or a shorter range")
            }
        }
        if Set(priority).count != priority.count {
            problem("priority", "a source is listed twice")
        }
        return problems
    }
}
