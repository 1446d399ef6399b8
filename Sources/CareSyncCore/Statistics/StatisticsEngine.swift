/// Computes statistics in one pass over samples sorted by start: the bucketing half of
/// `HKStatisticsCollectionQuery`, with SQL (or any caller) doing the fetching.
///
/// - Cumulative types (`cumulativeSum`): a sample `[s, e)` adds `value × overlap / (e − s)` to each
///   bucket it overlaps, so a sample across midnight is split in proportion to its time on each side.
///   A sample with `s == e` counts whole in the bucket holding `s`. Only the part inside the query's
///   `[start, end)` counts.
/// - Discrete types: a sample belongs to the bucket holding its start; average is the arithmetic
///   mean of the values, min and max the extremes, mostRecent the value with the latest start
///   (then latest end, then last given). Sound levels (`discreteEquivalentContinuousLevel`, dBASPL)
///   average as their equivalent continuous level, `10·log10(mean(10^(L/10)))`, as HealthKit does.
///   Temporally weighted types (`discreteTemporallyWeighted`: heart rate) average over time: in a bucket,
///   each value holds from its start until the next sample's start, the last one until the bucket's end,
///   and the average is Σ value × time / Σ time; samples with the same start share their time equally.
/// - Category types (`durationByValue`): a sample `[s, e)` adds the time it overlaps each bucket to the
///   bucket's duration of its value, as a cumulative sum of its length (see `StatisticsEngine.durations`).
/// - **Without `priority`, overlapping sources add up**: if a phone and a watch both count the same
///   steps, the bucket's sum holds both. Pass `priority` to count each moment once (see
///   `StatisticsEngine.prioritizedSums`); discrete figures then come, per bucket, from the highest-ranked
///   source that has samples in it.
/// - `separateBySource` gives, per bucket, each source's own figures over its own samples (priority is
///   not applied to them, as HealthKit's `sumQuantity(for:)`); the bucket's figures follow the rules above.
/// - Filters: `sources` keeps only the named sources, `excludeUserEntered` drops rows flagged user-entered.
///
/// Rows not sorted by start are sorted first (a copy). Work is O(n + buckets) plus, with priority,
/// the size of the higher-priority coverage each sample is checked against.
public enum StatisticsEngine {
    /// Runs `plan` over `input` and returns every bucket of the range in `plan.unit`.
    public static func run(_ plan: StatisticsPlan, input: StatisticsInput) -> StatisticsCollection {
        let query = plan.query
        var rows = input.rows
        if !isSortedByStart(rows) { rows.sort { $0.start < $1.start } }
        let keep = input.sources.map { query.sources?.contains($0) ?? true }
        let ranks = rankOfSources(input.sources, priority: query.priority)
        let selection = RowSelection(keep: keep, excludeUserEntered: query.excludeUserEntered)
        let canonical = query.type.canonicalUnit ?? .second  // category durations are computed in seconds
        let conversion = canonical.conversion(to: plan.unit)
        let separate = query.options.contains(.separateBySource)
        let buckets: [StatisticsBucket]
        if query.type.kind == .category {
            buckets = durations(plan, rows: rows, sources: input.sources, selection: selection, separate: separate,
                                factor: conversion.scale)
        } else if query.type.isCumulative {
            // A cumulative type's units never shift their zero (no temperature is summed), so a factor converts.
            buckets = cumulative(plan, rows: rows, sources: input.sources, ranks: query.priority.isEmpty ? nil : ranks,
                                 selection: selection, separate: separate, factor: conversion.scale)
        } else {
            let decibels = query.type.aggregation == .discreteEquivalentContinuousLevel
            if decibels { for i in rows.indices { rows[i].value = FigureMap.power(ofLevel: rows[i].value) } }
            buckets = discrete(plan, rows: rows, sources: input.sources, ranks: query.priority.isEmpty ? nil : ranks,
                               selection: selection, separate: separate,
                               weighted: query.type.aggregation == .discreteTemporallyWeighted,
                               map: FigureMap(unit: conversion, decibels: decibels))
        }
        return StatisticsCollection(type: query.type, unit: plan.unit, options: query.options, buckets: buckets)
    }

    /// Whether rows are already in start order (the store's `ORDER BY` gives it for free).
    static func isSortedByStart(_ rows: [StatisticsRow]) -> Bool {
        var previous = Int64.min
        for row in rows {
            if row.start < previous { return false }
            previous = row.start
        }
        return true
    }

    /// Rank of each source index, 0 the highest: listed sources in `priority` order, then the unlisted
    /// ones by name, so every moment has exactly one winning source.
    static func rankOfSources(_ sources: [String], priority: [String]) -> [Int] {
        var ranks = [Int](repeating: 0, count: sources.count)
        let listed = Dictionary(priority.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let unlisted = sources.indices.filter { listed[sources[$0]] == nil }.sorted { sources[$0] < sources[$1] }
        for index in sources.indices { if let rank = listed[sources[index]] { ranks[index] = rank } }
        for (offset, index) in unlisted.enumerated() { ranks[index] = priority.count + offset }
        return ranks
    }

    /// Source indexes in name order, for stable per-source output.
    static func sourceOrder(_ sources: [String]) -> [Int] { sources.indices.sorted { sources[$0] < sources[$1] } }
}

/// Which rows a query counts, apart from time: the sources filter and `excludeUserEntered`.
struct RowSelection {
    let keep: [Bool]
    let excludeUserEntered: Bool

    @inline(__always) func admits(_ row: StatisticsRow) -> Bool {
        keep[Int(row.source)] && !(excludeUserEntered && row.userEntered)
    }
}

/// Finds the bucket holding an instant; a cursor makes a run of increasing instants O(1) each.
struct BucketLocator {
    let bounds: [Int64]
    var cursor = 0

    init(bounds: [Int64]) { self.bounds = bounds }

    /// The bucket index `i` with `bounds[i] <= t < bounds[i + 1]`; `t` must be inside the range.
    @inline(__always) mutating func locate(_ t: Int64) -> Int {
        if t < bounds[cursor] {
            var low = 0, high = cursor
            while low < high {
                let mid = (low + high + 1) / 2
                if bounds[mid] <= t { low = mid } else { high = mid - 1 }
            }
            cursor = low
        }
        while bounds[cursor + 1] <= t { cursor += 1 }
        return cursor
    }
}
