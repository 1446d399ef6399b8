import CareSyncCore
import Foundation
import Testing

/// `durationByValue` on every store: a category sample counts wherever it overlaps the range, also when it
/// started before it (as a cumulative sample), and only live samples count.
@Suite struct CategoryDurationContractTests {
    @Test(arguments: ContractStores.all)
    func sleepStartingBeforeTheRangeCountsItsPartInside(factory: ContractStore) throws {
        let store = try factory.make()
        let p = Contract.patient, t = Contract.t0  // 2020-06-18T10:00:00Z
        func sleep(_ value: Double, from: TimeInterval, hours: Double, id: String? = nil) -> SampleInput {
            SampleInput(type: .sleepAnalysis, value: value, start: t + from * 3600, end: t + (from + hours) * 3600,
                        syncIdentifier: id, syncVersion: id == nil ? nil : 1)
        }
        _ = try store.upsert([sleep(0, from: -12, hours: 10), sleep(3, from: -9, hours: 3), sleep(5, from: -6, hours: 1, id: "rem")],
                             patient: p, source: Contract.device, now: t)
        _ = try store.delete(uuids: [], syncIdentifiers: ["rem"], patient: p, source: Contract.device, now: t)
        // The range starts at 04:00: in bed 22:00–08:00 gives 4 h, core 01:00–04:00 nothing, REM deleted.
        let query = StatisticsQuery(type: .sleepAnalysis, start: t - 6 * 3600, end: t + 14 * 3600, interval: .day,
                                    options: .durationByValue, unit: HealthUnit.named("hr"))
        #expect(try store.statistics(patient: p, query: query).buckets.map(\.values.durations) == [[0: 4]])
    }
}
