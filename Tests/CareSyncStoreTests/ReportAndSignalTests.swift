import CareSyncCore
import Foundation
import Testing
import CareSyncTestSupport
@testable import CareSyncStore

@Suite struct ReportAndSignalTests {
    let p = "patient-1", therapist = "org.example.therapist"

    func report(_ version: Int64, _ days: [(String, Double)]) -> WeeklyReportInput {
        WeeklyReportInput(syncIdentifier: "report-2020-W25", syncVersion: version, weekStart: CalendarDay(year: 2020, month: 6, day: 15),
                          timeZone: "America/Los_Angeles", samples: days.enumerated().map { i, day in
            WeeklyReportSampleInput(key: day.0, sample: StoreFixture.input(value: day.1, start: StoreFixture.t0.addingTimeInterval(Double(i) * 86_400)))
        })
    }

    @Test func wwdcStoryOnSQLite() throws {
        let f = try StoreFixture.make()
        let v1 = try f.store.upsertReport(report(1, [("2020-06-16", 420), ("2020-06-18", 400), ("2020-06-19", 430)]),
                                          patient: p, source: therapist, now: StoreFixture.t0)
        #expect(v1.outcome == .inserted)
        let device = try f.readAll(patient: p)
        #expect(device.items.count == 3)
        let old = v1.report.samples["2020-06-18"]!
        let v2 = try f.store.upsertReport(report(2, [("2020-06-16", 420), ("2020-06-18", 450), ("2020-06-19", 430)]),
                                          patient: p, source: therapist, now: StoreFixture.t0)
        #expect(v2.outcome == .replaced)
        let delta = try f.readAll(patient: p, from: device.anchor)
        #expect(delta.items.count == 2)
        #expect(delta.items.contains(.deleted(DeletedObject(uuid: old.uuid, type: old.type, syncIdentifier: "report-2020-W25/2020-06-18",
                                                             syncVersion: 1, source: therapist, start: old.start, end: old.end,
                                                             deletedAt: StoreFixture.t0))))
        let fresh = v2.report.samples["2020-06-18"]!
        #expect(fresh.value == 450 && fresh.syncVersion == 2 && fresh.uuid != old.uuid)
        #expect(v2.report.samples["2020-06-16"] == v1.report.samples["2020-06-16"])  // same uuid, still v1
        for ignored in [report(2, [("2020-06-18", 999)]), report(1, [])] {
            let r = try f.store.upsertReport(ignored, patient: p, source: therapist, now: StoreFixture.t0)
            #expect(r.outcome == .ignored && r.anchor == delta.anchor && r.report == v2.report)
        }
        let v3 = try f.store.upsertReport(report(3, [("2020-06-16", 420), ("2020-06-18", 450)]), patient: p, source: therapist, now: StoreFixture.t0)
        let last = try f.readAll(patient: p, from: delta.anchor)
        #expect(last.items == [.deleted(DeletedObject(uuid: v2.report.samples["2020-06-19"]!.uuid, type: .sixMinuteWalkTestDistance,
                                                      syncIdentifier: "report-2020-W25/2020-06-19", syncVersion: 1, source: therapist,
                                                      start: v2.report.samples["2020-06-19"]!.start, end: v2.report.samples["2020-06-19"]!.end,
                                                      deletedAt: StoreFixture.t0))])
        #expect(try f.store.report(patient: p, syncIdentifier: "report-2020-W25", source: therapist) == v3.report)
        #expect(try f.store.allReports(patient: p, from: CalendarDay(year: 2020, month: 6, day: 15), to: CalendarDay(year: 2020, month: 6, day: 15)) == [v3.report])
        #expect(try f.store.allReports(patient: p, from: CalendarDay(year: 2020, month: 6, day: 16), to: CalendarDay(year: 2020, month: 7, day: 1)).isEmpty)
        #expect(try f.store.deleteReport(patient: p, syncIdentifier: "report-2020-W25", source: "someone.else", now: StoreFixture.t0) == nil)
        let deleted = try f.store.deleteReport(patient: p, syncIdentifier: "report-2020-W25", source: therapist, now: StoreFixture.t0)
        #expect(deleted == (try f.store.currentAnchor()))
        #expect(try f.readAll(patient: p, from: last.anchor).items.count == 2)
        #expect(try f.store.report(patient: p, syncIdentifier: "report-2020-W25", source: therapist) == nil)
    }

    @Test func aCommitWakesItsPatientsWaitersOnlyTimesOutAndCancels() async throws {
        let f = try StoreFixture.make()
        let changes = f.store.notifier
        let seen = changes.generation(of: p)
        #expect(await changes.wait(for: p, after: seen, timeout: 0.05) == false)
        async let woken = changes.wait(for: p, after: seen, timeout: 10)
        try await Eventually.until { changes.waiterCount == 1 }
        _ = try f.store.upsert([StoreFixture.input()], patient: "someone-else", source: therapist, now: StoreFixture.t0)
        #expect(changes.waiterCount == 1)  // Another patient's change wakes nobody.
        _ = try f.store.upsert([StoreFixture.input(syncIdentifier: "k", syncVersion: 1)], patient: p, source: therapist, now: StoreFixture.t0)
        #expect(await woken == true)
        // A write whose every item is ignored changed no feed: no wake-up.
        let after = changes.generation(of: p)
        _ = try f.store.upsert([StoreFixture.input(syncIdentifier: "k", syncVersion: 1)], patient: p, source: therapist, now: StoreFixture.t0)
        #expect(changes.generation(of: p) == after)
        // Registering after a commit it did not see answers at once.
        #expect(await changes.wait(for: p, after: seen, timeout: 10) == true)
        let task = Task { await changes.wait(for: p, after: after, timeout: 10) }
        try await Eventually.until { changes.waiterCount == 1 }
        task.cancel()
        #expect(await task.value == false)
        #expect(changes.waiterCount == 0)
    }

    @Test func manyWaitersNeedNoThreads() async throws {
        let changes = ChangeNotifier()
        try await withThrowingTaskGroup(of: Bool.self) { group in
            // Generous bounds: on a loaded 2-core machine 2,000 tasks can take seconds just to be scheduled.
            for i in 0..<2_000 { group.addTask { await changes.wait(for: "p\(i % 10)", after: 0, timeout: 120) } }
            try await Eventually.until(deadline: .seconds(60)) { changes.waiterCount == 2_000 }
            changes.signal("p3")
            var woken = 0
            for try await answer in group.prefix(200) where answer { woken += 1 }
            #expect(woken == 200)
            #expect(changes.waiterCount == 1_800)
            changes.wakeAll()
            for try await answer in group { #expect(answer == false) }
        }
    }
}

@Suite struct ReportSquatterTests {
    @Test func sampleUnderADerivedIdentifierGivesWayToTheReport() throws {
        let f = try StoreFixture.make()
        let squatter = try f.store.upsert([StoreFixture.input(value: 1, syncIdentifier: "r/2020-06-18", syncVersion: 9)],
                                          patient: "p", source: "t", now: StoreFixture.t0)
        let report = WeeklyReportInput(syncIdentifier: "r", syncVersion: 1, weekStart: CalendarDay(year: 2020, month: 6, day: 15),
                                       timeZone: "UTC", samples: [WeeklyReportSampleInput(key: "2020-06-18", sample: StoreFixture.input())])
        let posted = try f.store.upsertReport(report, patient: "p", source: "t", now: StoreFixture.t0)
        #expect(posted.outcome == .inserted)
        #expect(posted.report.samples["2020-06-18"]?.value == 400)
        let feed = try f.store.changes(ChangeQuery(patient: "p", anchor: squatter.anchor))
        #expect(feed.deletedObjects.map(\.uuid) == [squatter.results[0].uuid])
    }
}
