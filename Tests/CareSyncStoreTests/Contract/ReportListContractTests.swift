import CareSyncCore
import Foundation
import Testing

/// The report list in pages, on every store: every report exactly once, in list order, each page within its
/// report and sample budgets (a report larger than the sample budget still comes, alone).
@Suite struct ReportListContractTests {
    let p = Contract.patient, now = Contract.t0 + 7 * Contract.day
    static let sources = ["org.example.b", "org.example.a"]

    /// Twelve reports in one week: ids r-00…r-05 from two sources, with 1, 2 or 3 samples each.
    func seeded(_ factory: ContractStore) throws -> any SyncStore {
        let store = try factory.make()
        for n in 0..<6 {
            for (s, source) in Self.sources.enumerated() {
                let walks = (0...((n + s) % 3)).map { (15 + $0, 300.0 + Double(n)) }
                _ = try store.upsertReport(Contract.makeReport(String(format: "r-%02d", n), version: 1, walks: walks),
                                           patient: p, source: source, now: now)
            }
        }
        return store
    }

    @Test(arguments: ContractStores.all)
    func pagesHoldEveryReportOnceInOrderWithinTheirBudgets(factory: ContractStore) throws {
        let store = try seeded(factory)
        let week = CalendarDay(year: 2020, month: 6, day: 15)
        let everything = try store.reports(ReportListQuery(patient: p, from: week, to: week))
        #expect(everything.next == nil && everything.reports.count == 12)
        let order = everything.reports.map { "\($0.syncIdentifier)|\($0.source)" }
        #expect(order == (0..<6).flatMap { n in ["org.example.a", "org.example.b"].map { String(format: "r-%02d|%@", n, $0) } })
        for (maxReports, maxSamples) in [(1, 100), (5, 100), (100, 4), (3, 2), (100, 1)] {
            var query = ReportListQuery(patient: p, from: week, to: week, maxReports: maxReports, maxSamples: maxSamples)
            var seen: [String] = []
            var pages = 0
            while true {
                let page = try store.reports(query)
                pages += 1
                #expect(!page.reports.isEmpty && page.reports.count <= maxReports)
                let samples = page.reports.map(\.samples.count).reduce(0, +)
                #expect(page.reports.count == 1 || samples <= maxSamples, "\(maxReports)/\(maxSamples): \(samples) samples")
                seen += page.reports.map { "\($0.syncIdentifier)|\($0.source)" }
                guard let next = page.next else { break }
                query.after = next
                #expect(pages < 50)
            }
            #expect(seen == order, "\(maxReports)/\(maxSamples)")
        }
    }

    @Test(arguments: ContractStores.all)
    func aRangeWithoutReportsIsOneEmptyPage(factory: ContractStore) throws {
        let store = try seeded(factory)
        let page = try store.reports(ReportListQuery(patient: p, from: CalendarDay(year: 2021, month: 1, day: 1),
                                                     to: CalendarDay(year: 2021, month: 12, day: 31)))
        #expect(page.reports.isEmpty && page.next == nil)
        let other = try store.reports(ReportListQuery(patient: "nobody", from: CalendarDay(year: 2000, month: 1, day: 1),
                                                      to: CalendarDay(year: 2030, month: 1, day: 1)))
        #expect(other.reports.isEmpty && other.next == nil)
    }

    @Test(arguments: ContractStores.all)
    func aTransactionCountsThePatientsOtherReports(factory: ContractStore) throws {
        let store = try seeded(factory)
        let counts = try store.write { w in
            [try w.reportCount(patient: p, besides: "r-00", of: "org.example.a"),
             try w.reportCount(patient: p, besides: "r-99", of: "org.example.a"),
             try w.reportCount(patient: "nobody", besides: "r-00", of: "org.example.a")]
        }
        #expect(counts == [11, 12, 0])
    }
}
