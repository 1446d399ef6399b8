import Foundation
import Testing
@testable import CareSyncCore

@Suite struct WeeklyReportPlannerTests {
    static let day: TimeInterval = 86_400

    static func report(_ version: Int64, _ values: [(String, Double)]) -> WeeklyReportInput {
        WeeklyReportInput(syncIdentifier: "report-2020-W25", syncVersion: version,
                          weekStart: CalendarDay(year: 2020, month: 6, day: 15), timeZone: "UTC",
                          samples: values.enumerated().map { index, pair in
                              WeeklyReportSampleInput(key: pair.0, sample: Fixtures.makeInput(
                                  value: pair.1, start: Fixtures.t0.addingTimeInterval(Double(index) * day)))
                          })
    }

    /// The samples a store would hold after applying `input` from scratch, with version 1.
    static func stored(_ input: WeeklyReportInput) -> StoredReportState {
        var samples: [String: Sample] = [:]
        for item in input.samples {
            samples[item.key] = Fixtures.makeSample(from: WeeklyReportPlanner.sampleInput(for: item, report: input), source: "t")
        }
        return StoredReportState(syncVersion: input.syncVersion, samples: samples)
    }

    @Test func newReportInsertsEveryKeyWithDerivedIdentifiers() {
        let plan = WeeklyReportPlanner.plan(stored: nil, input: Self.report(1, [("a", 1), ("b", 2)]))
        #expect(plan.outcome == .inserted)
        #expect(plan.actions.map(\.key) == ["a", "b"])
        for action in plan.actions {
            guard case let .insert(key, new) = action else { Issue.record("expected insert, got \(action)"); continue }
            #expect(new.syncIdentifier == "report-2020-W25/\(key)")
            #expect(new.syncVersion == 1)
            #expect(new.uuid == nil)
        }
    }

    @Test(arguments: [Int64(1), 0])
    func equalOrLowerVersionIsIgnored(version: Int64) {
        let state = Self.stored(Self.report(1, [("a", 1)]))
        let plan = WeeklyReportPlanner.plan(stored: state, input: Self.report(version, [("a", 5), ("z", 2)]))
        #expect(plan == WeeklyReportPlan(outcome: .ignored, actions: []))
    }

    @Test func higherVersionKeepsReplacesInsertsAndDeletes() {
        let v1 = Self.report(1, [("mon", 400), ("wed", 420), ("fri", 430)])
        let state = Self.stored(v1)
        var v2 = Self.report(2, [("mon", 400), ("wed", 450)])
        v2.samples.append(WeeklyReportSampleInput(key: "sat", sample: Fixtures.makeInput(value: 500)))
        let plan = WeeklyReportPlanner.plan(stored: state, input: v2)
        #expect(plan.outcome == .replaced)
        #expect(plan.actions.count == 4)
        #expect(plan.actions[0] == .keep(key: "mon", sample: state.samples["mon"]!))
        guard case let .replace("wed", old, new) = plan.actions[1] else { Issue.record("wed: \(plan.actions[1])"); return }
        #expect(old == state.samples["wed"]!)
        #expect(new.value == 450 && new.syncVersion == 2 && new.syncIdentifier == "report-2020-W25/wed")
        guard case let .insert("sat", inserted) = plan.actions[2] else { Issue.record("sat: \(plan.actions[2])"); return }
        #expect(inserted.syncVersion == 2)
        #expect(plan.actions[3] == .delete(key: "fri", old: state.samples["fri"]!))
    }

    @Test func keptSampleKeepsItsOldVersion() {
        let state = Self.stored(Self.report(1, [("mon", 400)]))
        let plan = WeeklyReportPlanner.plan(stored: state, input: Self.report(5, [("mon", 400)]))
        guard case let .keep(_, sample) = plan.actions.first else { Issue.record("\(plan.actions)"); return }
        #expect(sample.syncVersion == 1)
        #expect(sample.uuid == state.samples["mon"]!.uuid)
    }
}
