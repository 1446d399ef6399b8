/// One 30-day period of a monitoring episode and its days with data (docs/monitoring.md).
public struct MonitoringPeriod: Hashable, Sendable {
    /// 1 for the period starting on the episode's first day.
    public var number: Int
    /// The period's first day.
    public var first: CalendarDay
    /// Its 30th day.
    public var last: CalendarDay
    /// The last day that counts: the period's last day, the episode's end or today, whichever comes first.
    public var countedThrough: CalendarDay
    /// Days from `first` through `countedThrough` on which a device sample starts.
    public var daysWithData: Int
    /// Days after today still in the period (0 once it is over or the episode ended).
    public var daysLeft: Int
    /// How the period stands.
    public var state: MonitoringPeriodState
    /// Whether 16 days with data are still possible: days with data, plus today when it has none yet, plus days left.
    public var canReach16: Bool
    /// Whether days with data keep up with 16 in 30: `daysWithData × 30 ≥ 16 × days counted so far`.
    public var onPace: Bool

    /// A period.
    public init(number: Int, first: CalendarDay, last: CalendarDay, countedThrough: CalendarDay, daysWithData: Int, daysLeft: Int,
                state: MonitoringPeriodState, canReach16: Bool, onPace: Bool) {
        self.number = number; self.first = first; self.last = last; self.countedThrough = countedThrough
        self.daysWithData = daysWithData; self.daysLeft = daysLeft; self.state = state; self.canReach16 = canReach16; self.onPace = onPace
    }
}

/// Where a period stands.
public enum MonitoringPeriodState: String, Hashable, Sendable {
    /// Today is within it and the episode is open.
    case inProgress
    /// All 30 days are past.
    case complete
    /// The episode ended before its 30th day.
    case endedEarly
}

/// The 30-day periods of an episode, rolled from its first day.
public enum MonitoringPeriods {
    /// Days in a period.
    public static let length = 30
    /// Days with data a period needs for the 16–30-day device code.
    public static let target = 16

    /// The periods of `episode` that have begun by `today`, each with its count from `withData` (days in the patient's zone).
    public static func periods(of episode: MonitoringEpisode, today: CalendarDay, withData: Set<CalendarDay>) -> [MonitoringPeriod] {
        let stop = min(episode.endDay ?? today, today)
        guard stop >= episode.startDay else { return [] }
        var periods: [MonitoringPeriod] = []
        var first = episode.startDay
        var number = 1
        while first <= stop {
            let last = first.adding(days: length - 1)
            let through = min(last, stop)
            var count = 0
            var day = first
            while day <= through { if withData.contains(day) { count += 1 }; day = day.adding(days: 1) }
            let endedEarly = episode.endDay.map { $0 < last } ?? false
            let inProgress = !endedEarly && today <= last && episode.endDay.map { today <= $0 } ?? true
            let daysLeft = inProgress ? last.daysSince1970 - today.daysSince1970 : 0
            let todayOpen = inProgress && !withData.contains(today) ? 1 : 0
            let counted = through.daysSince1970 - first.daysSince1970 + 1
            periods.append(MonitoringPeriod(
                number: number, first: first, last: last, countedThrough: through, daysWithData: count, daysLeft: daysLeft,
                state: endedEarly ? .endedEarly : inProgress ? .inProgress : .complete,
                canReach16: count + todayOpen + daysLeft >= target, onPace: count * length >= target * counted))
            first = last.adding(days: 1)
            number += 1
        }
        return periods
    }
}
