import CareSyncCore
import CareSyncReferenceModel
import Foundation
import Testing

/// Goals on every store: one per patient and kind, replaced when set again; daily-step adherence equals a count made
/// directly from random instant step samples (devices and a therapist, replacements, deletions) in the patient's zone.
struct GoalContractTests {
    /// 2020-03-12T19:00:00Z: the 14 days before span the 2020-03-08 DST change in Los Angeles.
    static let now = Date(timeIntervalSince1970: 1_584_039_600)

    @Test(arguments: ContractMonitoringStores.all)
    func aGoalIsReplacedWhenSetAgain(stores: ContractMonitoringStores) throws {
        let (_, _, monitoring) = try stores.make()
        try monitoring.setGoal(PatientGoal(patient: "p1", kind: .dailySteps, target: 6000, setBy: "t1", setAt: Self.now))
        try monitoring.setGoal(PatientGoal(patient: "p1", kind: .sixMinuteWalk, target: 400, setBy: "t1", setAt: Self.now))
        try monitoring.setGoal(PatientGoal(patient: "p2", kind: .dailySteps, target: 5000, setBy: "t1", setAt: Self.now))
        try monitoring.setGoal(PatientGoal(patient: "p1", kind: .dailySteps, target: 7500.5, setBy: "t2", setAt: Self.now.addingTimeInterval(1)))
        let goals = try monitoring.goals(patient: "p1")
        #expect(goals.map(\.kind) == [.dailySteps, .sixMinuteWalk])
        #expect(goals[0].target == 7500.5 && goals[0].setBy == "t2" && goals[0].setAt == Self.now.addingTimeInterval(1))
        #expect(try monitoring.goals(patient: "p3").isEmpty)
    }

    @Test(arguments: ContractMonitoringStores.all, [UInt64(11), 12])
    func dailyStepAdherenceEqualsADirectCount(stores: ContractMonitoringStores, seed: UInt64) throws {
        let (store, access, _) = try stores.make()
        var random = SeededGenerator(seed: seed)
        let patient = PatientRecord(id: "p1", timeZone: "America/Los_Angeles", createdAt: Self.now)
        for step in 0..<30 {
            let source = ["org.example.phone", "org.example.watch", "org.example.therapist"][Int.random(in: 0...2, using: &random)]
            let inputs = (0..<Int.random(in: 1...5, using: &random)).map { _ in
                let start = Self.now.addingTimeInterval(-Double.random(in: 0...(16 * 86_400), using: &random).rounded())
                return SampleInput(type: .stepCount, value: Double(Int.random(in: 500...4000, using: &random)), start: start, end: start,
                                   syncIdentifier: "s\(Int.random(in: 0..<40, using: &random))", syncVersion: Int64(step))
            }
            let deleting = step % 4 == 3 ? ["s\(Int.random(in: 0..<40, using: &random))"] : []
            try store.write { w in
                _ = try w.upsert(inputs, patient: patient.id, source: source, now: Self.now)
                if !deleting.isEmpty { _ = try w.delete(uuids: [], syncIdentifiers: deleting, patient: patient.id, source: source, now: Self.now) }
            }
        }
        let goal = PatientGoal(patient: patient.id, kind: .dailySteps, target: 6000, setBy: "t", setAt: Self.now)
        let adherence = try PatientStatusReader(store: store, access: access).adherence(to: goal, of: patient, readable: nil, days: 14, now: Self.now)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: patient.timeZone)!
        let live = try Contract.readAll(store, patient: patient.id).samples
        var met = 0
        var dayStart = calendar.date(byAdding: .day, value: -14, to: calendar.startOfDay(for: Self.now))!
        for _ in 0..<14 {
            let next = calendar.date(byAdding: .day, value: 1, to: dayStart)!
            if live.filter({ $0.start >= dayStart && $0.start < next }).reduce(0, { $0 + $1.value }) >= 6000 { met += 1 }
            dayStart = next
        }
        #expect(adherence.days == 14 && adherence.daysMet == met, "\(stores) seed \(seed)")
        #expect(adherence.last == CalendarDay(year: 2020, month: 3, day: 11))
    }
}
