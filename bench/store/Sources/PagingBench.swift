import CareSyncCore
import CareSyncStore
import Foundation

/// Times feed pages: the whole history, then one page from the end.
enum PagingBench {
    static func run(store: SQLiteSyncStore, label: String, limit: Int, report: BenchReport) throws {
        var times: [Double] = []
        var cpuTimes: [Double] = []
        var anchor: Anchor?
        var items = 0
        let total = Clock.now
        while true {
            let start = Clock.now, cpu = ThreadCPUClock.now
            let page = try store.changes(ChangeQuery(patient: BenchInputs.patient, anchor: anchor, limit: limit))
            times.append(Clock.since(start) * 1000)
            cpuTimes.append((ThreadCPUClock.now - cpu) * 1000)
            items += page.samples.count + page.deletedObjects.count
            anchor = page.anchor
            if !page.hasMore { break }
        }
        let totalSeconds = Clock.since(total)
        times.sort()
        cpuTimes.sort()
        func pct(_ t: [Double], _ p: Double) -> Double { t[min(t.count - 1, Int(Double(t.count) * p))] }
        report.line(String(format: "[%@] whole history: %d items in %d pages, %.1f s; page wall ms median %.2f p99 %.2f max %.2f; CPU ms median %.2f p99 %.2f",
                           label, items, times.count, totalSeconds, pct(times, 0.5), pct(times, 0.99), times.last ?? 0,
                           pct(cpuTimes, 0.5), pct(cpuTimes, 0.99)))
        let head = try store.currentAnchor()
        var last: [Double] = []
        var lastCPU: [Double] = []
        for _ in 0..<20 {
            let start = Clock.now, cpu = ThreadCPUClock.now
            let page = try store.changes(ChangeQuery(patient: BenchInputs.patient,
                                                     anchor: Anchor(storeID: head.storeID, sequence: max(0, head.sequence - Int64(limit))),
                                                     limit: limit))
            last.append(Clock.since(start) * 1000)
            lastCPU.append((ThreadCPUClock.now - cpu) * 1000)
            precondition(page.samples.count == limit, "the last page should be full")
        }
        last.sort()
        lastCPU.sort()
        report.line(String(format: "[%@] one %d-item page from the end (20 runs): wall ms median %.2f min %.2f max %.2f; CPU ms median %.2f",
                           label, limit, last[10], last[0], last[19], lastCPU[10]))
    }
}
