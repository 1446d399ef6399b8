import Foundation

/// Running figures of discrete samples in one bucket (or one source in it); rows must come in start order.
struct DiscreteAccumulator {
    /// Whether the average is weighted by time (`discreteTemporallyWeighted`) rather than arithmetic.
    var weighted = false
    var count = 0
    var sum = 0.0
    var minimum = Double.infinity
    var maximum = -Double.infinity
    var recent = 0.0
    var recentStart = Int64.min
    var recentEnd = Int64.min
    /// The samples starting at `groupStart` (their mean holds until the next start), for the weighted average.
    var groupStart = Int64.min
    var groupSum = 0.0
    var groupCount = 0
    /// Σ mean × ms of the groups closed so far, and their ms.
    var weightedSum = 0.0
    var weight: Int64 = 0

    @inline(__always) mutating func add(_ row: StatisticsRow) {
        count += 1
        sum += row.value
        if row.value < minimum { minimum = row.value }
        if row.value > maximum { maximum = row.value }
        if row.start > recentStart || (row.start == recentStart && row.end >= recentEnd) {
            recent = row.value; recentStart = row.start; recentEnd = row.end
        }
        if weighted {
            if row.start != groupStart {
                if groupCount > 0 { closeGroup(at: row.start) }
                groupStart = row.start; groupSum = 0; groupCount = 0
            }
            groupSum += row.value
            groupCount += 1
        }
    }

    /// Ends the current group at `end`: its mean counts for `end − groupStart` ms.
    @inline(__always) mutating func closeGroup(at end: Int64) {
        weightedSum += groupSum / Double(groupCount) * Double(end - groupStart)
        weight += end - groupStart
    }

    /// The average: arithmetic, or weighted by time with the last group holding until `bucketEnd` (always
    /// after its start, as a discrete sample's bucket is the one holding its start).
    func average(bucketEnd: Int64) -> Double {
        guard weighted else { return sum / Double(count) }
        var closed = self
        closed.closeGroup(at: bucketEnd)
        return closed.weightedSum / Double(closed.weight)
    }

    /// The requested figures through `map`; all nil when empty.
    func values(_ options: StatisticsOptions, map: FigureMap, bucketEnd: Int64) -> StatisticsValues {
        guard count > 0 else { return StatisticsValues() }
        var values = StatisticsValues()
        if options.contains(.discreteAverage) { values.average = map.apply(average(bucketEnd: bucketEnd)) }
        if options.contains(.discreteMin) { values.minimum = map.apply(minimum) }
        if options.contains(.discreteMax) { values.maximum = map.apply(maximum) }
        if options.contains(.mostRecent) {
            values.mostRecent = map.apply(recent)
            values.mostRecentStart = SyncRules.date(milliseconds: recentStart)
            values.mostRecentEnd = SyncRules.date(milliseconds: recentEnd)
        }
        return values
    }
}

extension StatisticsEngine {
    /// Discrete buckets: each sample in the bucket of its start. With `ranks`, a bucket's figures come
    /// from its highest-ranked source that has samples there. `weighted` averages by time
    /// (`discreteTemporallyWeighted`, see `DiscreteAccumulator.average`).
    static func discrete(_ plan: StatisticsPlan, rows: [StatisticsRow], sources: [String], ranks: [Int]?,
                         selection: RowSelection, separate: Bool, weighted: Bool, map: FigureMap) -> [StatisticsBucket] {
        let bucketCount = plan.bucketCount
        let low = plan.startMilliseconds, high = plan.endMilliseconds
        let perSourceNeeded = separate || ranks != nil
        var total = [DiscreteAccumulator](repeating: DiscreteAccumulator(weighted: weighted), count: bucketCount)
        var perSource = perSourceNeeded
            ? [[DiscreteAccumulator]](repeating: total, count: sources.count) : []
        var locator = BucketLocator(bounds: plan.bounds)
        for row in rows where row.start >= low && row.start < high && selection.admits(row) {
            let i = locator.locate(row.start)
            if perSourceNeeded { perSource[Int(row.source)][i].add(row) }
            // The bucket's own figures see every source's samples in one time line (a weighted average
            // cannot be merged from per-source ones); with ranks they come from one source instead.
            if ranks == nil { total[i].add(row) }
        }
        let options = plan.query.options
        let order = sourceOrder(sources)
        let byRank = ranks.map { ranks in sources.indices.sorted { ranks[$0] < ranks[$1] } }
        return (0..<bucketCount).map { i in
            let end = plan.bounds[i + 1]
            let accumulator = byRank.map { byRank in
                byRank.lazy.map { perSource[$0][i] }.first { $0.count > 0 } ?? DiscreteAccumulator()
            } ?? total[i]
            let bySource: [SourceStatistics]? = separate
                ? order.filter { perSource[$0][i].count > 0 }
                    .map { SourceStatistics(source: sources[$0], values: perSource[$0][i].values(options, map: map, bucketEnd: end)) }
                : nil
            return StatisticsBucket(start: plan.bucketStart(i), end: plan.bucketEnd(i),
                                    values: accumulator.values(options, map: map, bucketEnd: end), sources: bySource)
        }
    }
}

/// How a discrete figure computed over canonical values becomes an answer: back from sound power to
/// decibels for equivalent continuous levels, then into the requested unit (offsets included: degF).
struct FigureMap {
    let unit: UnitConversion
    let decibels: Bool

    /// The relative sound power of a level in decibels, which averages linearly.
    @inline(__always) static func power(ofLevel level: Double) -> Double { pow(10, level / 10) }

    /// A figure in the answer's unit.
    @inline(__always) func apply(_ figure: Double) -> Double { unit.apply(decibels ? 10 * log10(figure) : figure) }
}
