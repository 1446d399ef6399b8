extension StatisticsEngine {
    /// Cumulative sums where each moment counts only its highest-priority source.
    ///
    /// The algorithm, rank by rank from the highest (`rankOfSources`: the `priority` list in order,
    /// then unlisted sources by name):
    /// 1. `covered` holds the union of the time covered by every higher rank, as sorted disjoint
    ///    intervals (adjacent and overlapping intervals merged). It starts empty.
    /// 2. Each sample `[s, e)` of the current rank is cut by `covered`: for every uncovered piece
    ///    `[a, b)` it adds `value × (b − a) / (e − s)` to the buckets, prorated as usual. A fully
    ///    covered sample adds nothing; an uncovered one adds its whole value. A zero-length sample
    ///    counts whole unless its instant lies inside `covered`.
    /// 3. The rank's own intervals are merged into `covered` before the next rank.
    ///
    /// So time covered by several sources counts only the highest-ranked source's samples there,
    /// prorated (watch steps win over phone steps; phone steps fill the gaps where no watch sample
    /// is). Samples of one source that overlap each other still add up, as HealthKit stores them.
    /// Samples are sorted by start, so one pointer into `covered` per rank only moves forward:
    /// O(n + Σ covered intervals met) overall.
    static func prioritizedSums(_ plan: StatisticsPlan, rows: [StatisticsRow], ranks: [Int],
                                selection: RowSelection) -> CumulativeSums {
        var total = CumulativeSums(bounds: plan.bounds)
        let low = plan.startMilliseconds, high = plan.endMilliseconds
        let rankCount = (ranks.max() ?? -1) + 1
        var byRank = [[Int32]](repeating: [], count: rankCount)
        for (index, row) in rows.enumerated() where selection.admits(row) {
            guard row.start < high && (row.end > low || (row.end == row.start && row.start >= low)) else { continue }
            byRank[ranks[Int(row.source)]].append(Int32(index))
        }
        var coveredStarts: [Int64] = [], coveredEnds: [Int64] = []
        let lastRank = byRank.lastIndex { !$0.isEmpty } ?? -1
        for rank in 0..<rankCount where !byRank[rank].isEmpty {
            var pointer = 0
            let count = coveredStarts.count
            for index in byRank[rank] {
                let row = rows[Int(index)]
                while pointer < count && coveredEnds[pointer] <= row.start { pointer += 1 }
                if row.end == row.start {
                    if pointer == count || coveredStarts[pointer] > row.start { total.add(row, from: row.start, to: row.start) }
                    continue
                }
                var position = row.start
                var j = pointer
                while j < count && coveredStarts[j] < row.end {
                    if coveredStarts[j] > position { total.add(row, from: position, to: coveredStarts[j]) }
                    position = max(position, coveredEnds[j])
                    if position >= row.end { break }
                    j += 1
                }
                if position < row.end { total.add(row, from: position, to: row.end) }
            }
            if rank < lastRank {
                mergeCoverage(of: byRank[rank], rows: rows, starts: &coveredStarts, ends: &coveredEnds)
            }
        }
        return total
    }

    /// Merges the intervals of `indexes` (rows sorted by start) into the sorted disjoint union `starts`/`ends`.
    static func mergeCoverage(of indexes: [Int32], rows: [StatisticsRow], starts: inout [Int64], ends: inout [Int64]) {
        var newStarts: [Int64] = [], newEnds: [Int64] = []
        newStarts.reserveCapacity(starts.count + indexes.count)
        newEnds.reserveCapacity(starts.count + indexes.count)
        func push(_ s: Int64, _ e: Int64) {
            if let last = newEnds.last, s <= last {
                if e > last { newEnds[newEnds.count - 1] = e }
            } else {
                newStarts.append(s); newEnds.append(e)
            }
        }
        var i = 0, j = 0
        while i < starts.count || j < indexes.count {
            if j < indexes.count {
                let row = rows[Int(indexes[j])]
                if row.end == row.start { j += 1; continue }
                if i == starts.count || row.start < starts[i] {
                    push(row.start, row.end); j += 1; continue
                }
            }
            push(starts[i], ends[i]); i += 1
        }
        starts = newStarts; ends = newEnds
    }
}
