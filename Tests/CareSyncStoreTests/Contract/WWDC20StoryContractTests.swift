import CareSyncCore
import Foundation
import Testing

/// The story of issue 2 (WWDC20 "Synchronize health data with HealthKit"), step by step, on every store.
@Suite struct WWDC20StoryContractTests {
    @Test(arguments: ContractStores.all)
    func weeklyReportCorrectionsReachTheDeviceExactly(factory: ContractStore) throws {
        let store = try factory.make()
        let now = Contract.t0.addingTimeInterval(7 * Contract.day)

        // The therapist posts report v1 with tests on three days.
        let v1 = Contract.makeReport(version: 1, walks: [(16, 380), (18, 400), (19, 420)])
        let posted = try store.upsertReport(v1, patient: Contract.patient, source: Contract.therapist, now: now)
        #expect(posted.outcome == .inserted)
        #expect(posted.report.samples.count == 3)
        #expect(posted.report.samples["2020-06-18"]?.syncIdentifier == "report-2020-W25/2020-06-18")

        // The device reads from no anchor and gets three samples.
        let first = try Contract.readAll(store)
        #expect(first.samples.count == 3 && first.deletedObjects.isEmpty)
        #expect(first.sampleUUIDs == Set(posted.report.samples.values.map(\.uuid)))
        #expect(Set(first.samples.map(\.value)) == [380, 400, 420])
        let oldJune18 = try #require(posted.report.samples["2020-06-18"])

        // The therapist corrects June 18 from 400 m to 450 m as v2.
        let v2 = Contract.makeReport(version: 2, walks: [(16, 380), (18, 450), (19, 420)])
        let corrected = try store.upsertReport(v2, patient: Contract.patient, source: Contract.therapist, now: now + 60)
        #expect(corrected.outcome == .replaced)
        let second = try Contract.readAll(store, from: first.anchor)
        #expect(second.deletedObjects.map(\.uuid) == [oldJune18.uuid])
        #expect(second.samples.count == 1)
        let newJune18 = try #require(second.samples.first)
        #expect(newJune18.uuid != oldJune18.uuid)
        #expect(newJune18.value == 450 && newJune18.syncVersion == 2)
        #expect(newJune18.syncIdentifier == "report-2020-W25/2020-06-18" && newJune18.source == Contract.therapist)
        #expect(corrected.report.samples["2020-06-18"]?.uuid == newJune18.uuid)
        for key in ["2020-06-16", "2020-06-19"] {
            #expect(corrected.report.samples[key] == posted.report.samples[key], "\(key) must be untouched: same uuid, same version")
            #expect(corrected.report.samples[key]?.syncVersion == 1)
        }

        // v2 again: ignored, the feed does not move.
        let again = try store.upsertReport(v2, patient: Contract.patient, source: Contract.therapist, now: now + 120)
        #expect(again.outcome == .ignored)
        #expect(again.anchor == second.anchor)
        let third = try Contract.readAll(store, from: second.anchor)
        #expect(third.samples.isEmpty && third.deletedObjects.isEmpty && third.anchor == second.anchor)

        // v1 again: ignored too; the report stays v2.
        let stale = try store.upsertReport(v1, patient: Contract.patient, source: Contract.therapist, now: now + 180)
        #expect(stale.outcome == .ignored)
        #expect(stale.report.syncVersion == 2 && stale.report.samples["2020-06-18"]?.value == 450)
        #expect(try Contract.readAll(store, from: second.anchor).samples.isEmpty)
        #expect(try store.currentAnchor() == second.anchor)

        // v3 without June 16: one tombstone.
        let june16 = try #require(posted.report.samples["2020-06-16"])
        let v3 = Contract.makeReport(version: 3, walks: [(18, 450), (19, 420)])
        #expect(try store.upsertReport(v3, patient: Contract.patient, source: Contract.therapist, now: now + 240).outcome == .replaced)
        let fourth = try Contract.readAll(store, from: second.anchor)
        #expect(fourth.samples.isEmpty)
        #expect(fourth.deletedObjects.map(\.uuid) == [june16.uuid])
        #expect(fourth.deletedObjects.first?.syncIdentifier == "report-2020-W25/2020-06-16")

        // A device starting over sees the two current samples and both tombstones.
        let fresh = try Contract.readAll(store)
        #expect(fresh.sampleUUIDs == [newJune18.uuid, try #require(posted.report.samples["2020-06-19"]).uuid])
        #expect(fresh.deletedUUIDs == [oldJune18.uuid, june16.uuid])
        let stored = try #require(try store.report(patient: Contract.patient, syncIdentifier: "report-2020-W25", source: Contract.therapist))
        #expect(stored.syncVersion == 3 && Set(stored.samples.keys) == ["2020-06-18", "2020-06-19"])
    }
}
