import CareSyncCore
import Foundation
import Testing

/// One example for every rule of api.md "Weekly reports", on every store.
@Suite struct WeeklyReportContractTests {
    let p = Contract.patient, src = Contract.therapist, now = Contract.t0 + 7 * Contract.day

    @Test(arguments: ContractStores.all)
    func newReportStoresSamplesUnderDerivedIdentifiers(factory: ContractStore) throws {
        let store = try factory.make()
        let result = try store.upsertReport(Contract.makeReport(version: 4, walks: [(15, 300), (21, 310)]),
                                            patient: p, source: src, now: now)
        #expect(result.outcome == .inserted)
        #expect(result.report.syncVersion == 4 && result.report.source == src && result.report.timeZone == "America/Los_Angeles")
        #expect(result.report.weekStart == CalendarDay(year: 2020, month: 6, day: 15) && result.report.updatedAt == now)
        for (key, sample) in result.report.samples {
            #expect(sample.syncIdentifier == "report-2020-W25/\(key)" && sample.syncVersion == 4 && sample.source == src)
        }
        #expect(result.anchor == (try store.currentAnchor()))
        #expect(try Contract.readAll(store).sampleUUIDs == Set(result.report.samples.values.map(\.uuid)))
    }

    @Test(arguments: ContractStores.all)
    func higherVersionKeepsReplacesInsertsAndTombstones(factory: ContractStore) throws {
        let store = try factory.make()
        let v1 = try store.upsertReport(Contract.makeReport(version: 1, walks: [(15, 300), (16, 310), (17, 320)]),
                                        patient: p, source: src, now: now)
        let v2 = try store.upsertReport(Contract.makeReport(version: 2, walks: [(15, 300), (16, 315), (18, 330)]),
                                        patient: p, source: src, now: now + 60)
        #expect(v2.outcome == .replaced)
        #expect(v2.report.samples["2020-06-15"] == v1.report.samples["2020-06-15"])
        #expect(v2.report.samples["2020-06-16"]?.syncVersion == 2 && v2.report.samples["2020-06-16"]?.value == 315)
        #expect(v2.report.samples["2020-06-16"]?.uuid != v1.report.samples["2020-06-16"]?.uuid)
        #expect(v2.report.samples["2020-06-18"]?.syncVersion == 2)
        #expect(v2.report.samples["2020-06-17"] == nil && v2.report.samples.count == 3)
        let read = try Contract.readAll(store, from: v1.anchor)
        #expect(read.sampleUUIDs == [v2.report.samples["2020-06-16"]!.uuid, v2.report.samples["2020-06-18"]!.uuid])
        #expect(read.deletedUUIDs == [v1.report.samples["2020-06-16"]!.uuid, v1.report.samples["2020-06-17"]!.uuid])
    }

    @Test(arguments: ContractStores.all)
    func equalOrLowerVersionChangesNothing(factory: ContractStore) throws {
        let store = try factory.make()
        let v3 = try store.upsertReport(Contract.makeReport(version: 3, walks: [(15, 300)]), patient: p, source: src, now: now)
        for version in [Int64(3), 2] {
            let result = try store.upsertReport(Contract.makeReport(version: version, walks: [(15, 999), (16, 1)]),
                                                patient: p, source: src, now: now + 60)
            #expect(result.outcome == .ignored)
            #expect(result.report == v3.report)
            #expect(result.anchor == v3.anchor)
        }
        #expect(try store.report(patient: p, syncIdentifier: "report-2020-W25", source: src) == v3.report)
    }

    @Test(arguments: ContractStores.all)
    func getListAndDelete(factory: ContractStore) throws {
        let store = try factory.make()
        var w26 = Contract.makeReport("report-2020-W26", version: 1, walks: [(18, 1)])
        w26.weekStart = CalendarDay(year: 2020, month: 6, day: 22)
        w26.samples[0].sample.start += 7 * Contract.day; w26.samples[0].sample.end += 7 * Contract.day
        _ = try store.upsertReport(w26, patient: p, source: src, now: now)
        let w25 = try store.upsertReport(Contract.makeReport(version: 1, walks: [(18, 2), (19, 3)]), patient: p, source: src, now: now)
        _ = try store.upsertReport(Contract.makeReport(version: 1, walks: [(18, 2)]), patient: "patient-2", source: src, now: now)
        let june = try store.allReports(patient: p, from: CalendarDay(year: 2020, month: 6, day: 1), to: CalendarDay(year: 2020, month: 6, day: 30))
        #expect(june.map(\.syncIdentifier) == ["report-2020-W25", "report-2020-W26"])
        #expect(try store.allReports(patient: p, from: CalendarDay(year: 2020, month: 6, day: 16),
                                  to: CalendarDay(year: 2020, month: 6, day: 22)).map(\.syncIdentifier) == ["report-2020-W26"])
        #expect(try store.report(patient: p, syncIdentifier: "report-2020-W25", source: src) == w25.report)
        #expect(try store.report(patient: p, syncIdentifier: "nope", source: src) == nil)

        // Only the author deletes; the samples become tombstones; the id is then free.
        #expect(try store.deleteReport(patient: p, syncIdentifier: "report-2020-W25", source: "org.example.other", now: now) == nil)
        let before = try store.currentAnchor()
        let anchor = try #require(try store.deleteReport(patient: p, syncIdentifier: "report-2020-W25", source: src, now: now + 5))
        #expect(anchor == (try store.currentAnchor()))
        let read = try Contract.readAll(store, from: before)
        #expect(read.samples.isEmpty && read.deletedUUIDs == Set(w25.report.samples.values.map(\.uuid)))
        #expect(read.deletedObjects.allSatisfy { $0.deletedAt == now + 5 })
        #expect(try store.report(patient: p, syncIdentifier: "report-2020-W25", source: src) == nil)
        #expect(try store.deleteReport(patient: p, syncIdentifier: "report-2020-W25", source: src, now: now) == nil)
        #expect(try store.upsertReport(Contract.makeReport(version: 1, walks: [(18, 2)]), patient: p, source: src,
                                       now: now + 9).outcome == .inserted)
        #expect(try store.report(patient: "patient-2", syncIdentifier: "report-2020-W25", source: src)?.samples.count == 1)
    }

    @Test(arguments: ContractStores.all)
    func reportsArePerSource(factory: ContractStore) throws {
        let store = try factory.make()
        _ = try store.upsertReport(Contract.makeReport(version: 5, walks: [(18, 1)]), patient: p, source: src, now: now)
        let other = try store.upsertReport(Contract.makeReport(version: 1, walks: [(18, 2)]), patient: p, source: "org.example.t2", now: now + 1)
        #expect(other.outcome == .inserted)
        #expect(try Contract.readAll(store).samples.count == 2)
        // A read names its source: each source reads its own, however recently another source wrote (issue 25).
        #expect(try store.report(patient: p, syncIdentifier: "report-2020-W25", source: src)?.syncVersion == 5)
        #expect(try store.report(patient: p, syncIdentifier: "report-2020-W25", source: "org.example.t2")?.syncVersion == 1)
        #expect(try store.report(patient: p, syncIdentifier: "report-2020-W25", source: "org.example.t3") == nil)
        #expect(try store.reportSources(patient: p, syncIdentifier: "report-2020-W25") == ["org.example.t2", src].sorted())
        #expect(try store.reportSources(patient: "patient-2", syncIdentifier: "report-2020-W25").isEmpty)
    }

    @Test func reportValidationRules() {
        var draft = WeeklyReportDraft(syncIdentifier: "r", syncVersion: 1, weekStart: "2020-06-15", timeZone: "America/Los_Angeles")
        let walk = SampleDraft(type: "sixMinuteWalkTestDistance", value: 400, unit: "m",
                               start: "2020-06-18T10:00:00-07:00", end: "2020-06-18T10:06:00-07:00")
        let outside = SampleDraft(type: "sixMinuteWalkTestDistance", value: 400, unit: "m",
                                  start: "2020-06-22T10:00:00-07:00", end: "2020-06-22T10:06:00-07:00")
        draft.samples = [WeeklyReportSampleDraft(key: "a", sample: walk), WeeklyReportSampleDraft(key: "a", sample: walk),
                         WeeklyReportSampleDraft(key: "b", sample: outside)]
        #expect(throws: SyncError.validationFailed([
            ValidationProblem(index: 1, field: "key", message: "duplicate key 'a' in the report"),
            ValidationProblem(index: 2, field: "start", message: "is outside the week 2020-06-15 to 2020-06-21 in America/Los_Angeles"),
            ValidationProblem(index: 2, field: "end", message: "is outside the week 2020-06-15 to 2020-06-21 in America/Los_Angeles"),
        ])) { try WeeklyReportValidator.validate(draft) }
    }
}
