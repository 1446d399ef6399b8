/// Per-bucket sums of one cumulative series (a bucket's total or one source's), with a hit count
/// so an empty bucket reads as nil rather than 0.
struct CumulativeSums {
    var sums: [Double]
    var hits: [Int32]
    var locator: BucketLocator

    init(bounds: [Int64]) {
        sums = [Double](repeating: 0, count: bounds.count - 1)
        hits = [Int32](repeating: 0, count: bounds.count - 1)
        locator = BucketLocator(bounds: bounds)
    }

    /// Adds the part of `row` lying in `[a, b)` (a sub-interval of the row), prorated by time and cut
    /// to the query range. A zero-length row counts whole in the bucket holding its instant.
    @inline(__always) mutating func add(_ row: StatisticsRow, from a: Int64, to b: Int64) {
        let bounds = locator.bounds
        let low = bounds[0], high = bounds[bounds.count - 1]
        let duration = row.end - row.start
        if duration == 0 {
            guard a >= low && a < high else { return }
            let i = locator.locate(a)
            sums[i] += row.value
            hits[i] += 1
            return
        }
        let from = max(a, low), to = min(b, high)
        guard from < to else { return }
        var i = locator.locate(from)
        if to <= bounds[i + 1] {
            sums[i] += to - from == duration ? row.value : row.value * Double(to - from) / Double(duration)
            hits[i] += 1
            return
        }
        let length = Double(duration)
        while i < sums.count && bounds[i] < to {
            let overlap = min(to, bounds[i + 1]) - max(from, bounds[i])
            if overlap > 0 {
                sums[i] += row.value * Double(overlap) / length
                hits[i] += 1
            }
            i += 1
        }
    }

    /// The sum of bucket `i` times `factor`, or nil when nothing counted there.
    func value(_ i: Int, factor: Double) -> Double? { hits[i] > 0 ? sums[i] * factor : nil }
}

extension StatisticsEngine {
    /// Cumulative buckets: a plain prorated pass, or the priority merge when `ranks` is given.
    static func cumulative(_ plan: StatisticsPlan, rows: [StatisticsRow], sources: [String], ranks: [Int]?,
                           selection: RowSelection, separate: Bool, factor: Double) -> [StatisticsBucket] {
        var perSource = separate ? Array(repeating: CumulativeSums(bounds: plan.bounds), count: sources.count) : []
        var total: CumulativeSums
        if let ranks {
            if separate {
                for row in rows where selection.admits(row) { perSource[Int(row.source)].add(row, from: row.start, to: row.end) }
            }
            total = prioritizedSums(plan, rows: rows, ranks: ranks, selection: selection)
        } else {
            total = CumulativeSums(bounds: plan.bounds)
            for row in rows where selection.admits(row) {
                total.add(row, from: row.start, to: row.end)
                if separate { perSource[Int(row.source)].add(row, from: row.start, to: row.end) }
            }
        }
        let order = sourceOrder(sources)
        return (0..<plan.bucketCount).map { i in
            var bySource: [SourceStatistics]?
            if separate {
                bySource = order.compactMap { s in
                    perSource[s].value(i, factor: factor).map { SourceStatistics(source: sources[s], values: StatisticsValues(sum: $0)) }
                }
            }
            return StatisticsBucket(start: plan.bucketStart(i), end: plan.bucketEnd(i),
                                    values: StatisticsValues(sum: total.value(i, factor: factor)), sources: bySource)
        }
    }
}
