extension StatisticsEngine {
    /// Category durations (`durationByValue`): for each value, the time its samples overlap each bucket.
    ///
    /// A sample `[s, e)` of value `v` is a cumulative sample of `(e − s)` seconds, prorated like any
    /// cumulative one, so it adds its overlap with each bucket (cut to the range) to the bucket's duration
    /// of `v`. A zero-length sample (an event) adds 0 but makes its value appear. Overlapping samples add
    /// up, across sources too (no priority); `separateBySource` gives each source's own durations.
    static func durations(_ plan: StatisticsPlan, rows: [StatisticsRow], sources: [String], selection: RowSelection,
                          separate: Bool, factor: Double) -> [StatisticsBucket] {
        var total: [Int: CumulativeSums] = [:]
        var perSource = [[Int: CumulativeSums]](repeating: [:], count: separate ? sources.count : 0)
        for row in rows where selection.admits(row) {
            let value = Int(row.value)
            var length = row
            length.value = Double(row.end - row.start) / 1000
            total[value, default: CumulativeSums(bounds: plan.bounds)].add(length, from: row.start, to: row.end)
            if separate {
                perSource[Int(row.source)][value, default: CumulativeSums(bounds: plan.bounds)].add(length, from: row.start, to: row.end)
            }
        }
        func figures(_ sums: [Int: CumulativeSums], _ i: Int) -> StatisticsValues {
            let durations = sums.compactMapValues { $0.value(i, factor: factor) }
            return StatisticsValues(durations: durations.isEmpty ? nil : durations)
        }
        let order = sourceOrder(sources)
        return (0..<plan.bucketCount).map { i in
            let bySource: [SourceStatistics]? = separate
                ? order.compactMap { s in
                    let values = figures(perSource[s], i)
                    return values.isEmpty ? nil : SourceStatistics(source: sources[s], values: values)
                }
                : nil
            return StatisticsBucket(start: plan.bucketStart(i), end: plan.bucketEnd(i), values: figures(total, i), sources: bySource)
        }
    }
}
