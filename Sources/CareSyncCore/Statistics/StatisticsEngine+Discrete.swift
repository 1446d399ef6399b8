import Foundation

/// Running figures of discrete samples in one bucket (or one source in it).
struct DiscreteAccumulator {
    var count = 0
    var sum = 0.0
    var minimum = Double.infinity
    var maximum = -Double.infinity
    var recent = 0.0
    var recentStart = Int64.min
    var recentEnd = Int64.min

    @inline(__always) mutating func add(_ row: StatisticsRow) {
        count += 1
        sum += row.value
        if row.value < minimum { minimum = row.value }
        if row.value > maximum { maximum = row.value }
        if row.start > recentStart || (row.start == recentStart && row.end >= recentEnd) {
            recent = row.value; recentStart = row.start; recentEnd = row.end
        }
    }

    /// The requested figures through `map`; all nil when empty.
    func values(_ options: StatisticsOptions, map: FigureMap) -> StatisticsValues {
        guard count > 0 else { return StatisticsValues() }
        var values = StatisticsValues()
        if options.contains(.discreteAverage) { values.average = map.apply(sum / Double(count)) }
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
    /// from its highest-ranked source that has samples there.
    static func discrete(_ plan: StatisticsPlan, rows: [StatisticsRow], sources: [String], ranks: [Int]?,
                         selection: RowSelection, separate: Bool, map: FigureMap) -> [StatisticsBucket] {
        let bucketCount = plan.bucketCount
        let low = plan.startMilliseconds, high = plan.endMilliseconds
        let perSourceNeeded = separate || ranks != nil
        var total = [DiscreteAccumulator](repeating: DiscreteAccumulator(), count: bucketCount)
        var perSource = perSourceNeeded
            ? [[DiscreteAccumulator]](repeating: total, count: sources.count) : []
        var locator = BucketLocator(bounds: plan.bounds)
        for row in rows where row.start >= low && row.start < high && selection.admits(row) {
            let i = locator.locate(row.start)
            if perSourceNeeded { perSource[Int(row.source)][i].add(row) } else { total[i].add(row) }
        }
        let options = plan.query.options
        let order = sourceOrder(sources)
        let byRank = ranks.map { ranks in sources.indices.sorted { ranks[$0] < ranks[$1] } }
        return (0..<bucketCount).map { i in
            let accumulator: DiscreteAccumulator
            if let byRank {
                accumulator = byRank.lazy.map { perSource[$0][i] }.first { $0.count > 0 } ?? DiscreteAccumulator()
            } else if perSourceNeeded {
                accumulator = perSource.reduce(into: DiscreteAccumulator()) { merged, bySource in merged.merge(bySource[i]) }
            } else {
                accumulator = total[i]
            }
            let bySource: [SourceStatistics]? = separate
                ? order.filter { perSource[$0][i].count > 0 }
                    .map { SourceStatistics(source: sources[$0], values: perSource[$0][i].values(options, map: map)) }
                : nil
            return StatisticsBucket(start: plan.bucketStart(i), end: plan.bucketEnd(i),
                                    values: accumulator.values(options, map: map), sources: bySource)
        }
    }
}

extension DiscreteAccumulator {
    /// Folds another accumulator's samples into this one.
    mutating func merge(_ other: DiscreteAccumulator) {
        guard other.count > 0 else { return }
        count += other.count
        sum += other.sum
        minimum = min(minimum, other.minimum)
        maximum = max(maximum, other.maximum)
        if other.recentStart > recentStart || (other.recentStart == recentStart && other.recentEnd >= recentEnd) {
            recent = other.recent; recentStart = other.recentStart; recentEnd = other.recentEnd
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
