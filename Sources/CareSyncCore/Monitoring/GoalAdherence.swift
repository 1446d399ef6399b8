import Foundation

/// How well a patient meets a goal over a span of days (docs/monitoring.md, "Goals").
public struct GoalAdherence: Hashable, Sendable {
    /// The goal.
    public var goal: PatientGoal
    /// The first day of the span (patient's zone).
    public var first: CalendarDay
    /// The last day of the span: yesterday, the last full day.
    public var last: CalendarDay
    /// Days of the span that met a daily goal (nil for a walk goal).
    public var daysMet: Int?
    /// Days in the span.
    public var days: Int
    /// The latest value measured: the latest walk, or the last day's steps.
    public var latest: Double?
    /// Whether the latest value reaches the target.
    public var latestMet: Bool { latest.map { $0 >= goal.target } ?? false }
    /// daysMet / days, for a daily goal.
    public var ratio: Double? { daysMet.map { Double($0) / Double(days) } }

    /// An adherence.
    public init(goal: PatientGoal, first: CalendarDay, last: CalendarDay, daysMet: Int?, days: Int, latest: Double?) {
        self.goal = goal; self.first = first; self.last = last; self.daysMet = daysMet; self.days = days; self.latest = latest
    }
}

extension PatientStatusReader {
    /// The adherence to `goal` over the `days` full days ending yesterday in the patient's zone, from statistics of every
    /// readable source (as weekly totals); a goal of a type the caller may not read shows no figures.
    public func adherence(to goal: PatientGoal, of patient: PatientRecord, readable: Set<SampleType>?, days: Int, now: Date) throws -> GoalAdherence {
        let zone = TimeZone(identifier: patient.timeZone) ?? TimeZone(identifier: "UTC")!
        let last = DeviceDays.day(of: now, in: zone).adding(days: -1), first = last.adding(days: -(days - 1))
        guard Self.mayRead(goal.kind.type, readable) else { return GoalAdherence(goal: goal, first: first, last: last, daysMet: nil, days: days, latest: nil) }
        switch goal.kind {
        case .dailySteps:
            let query = StatisticsQuery(type: .stepCount, start: first.start(in: zone), end: last.adding(days: 1).start(in: zone),
                                        interval: .day, anchorDate: first.start(in: zone), timeZone: zone.identifier, options: .cumulativeSum)
            let sums = try store.statistics(patient: patient.id, query: query).buckets.map { $0.values.sum ?? 0 }
            return GoalAdherence(goal: goal, first: first, last: last, daysMet: sums.filter { $0 >= goal.target }.count, days: days, latest: sums.last)
        case .sixMinuteWalk:
            return GoalAdherence(goal: goal, first: first, last: last, daysMet: nil, days: days, latest: try latestWalk(patient: patient.id)?.meters)
        }
    }
}
