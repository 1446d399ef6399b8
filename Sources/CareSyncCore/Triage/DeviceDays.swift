import Foundation

/// Calendar days in a patient's time zone: which hold a device sample's start, and the runs that hold none.
public enum DeviceDays {
    /// The calendar day `instant` falls on in `zone`.
    public static func day(of instant: Date, in zone: TimeZone) -> CalendarDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day], from: instant)
        return CalendarDay(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1)
    }

    /// The days from `first` through `last` on which at least one of `starts` falls: the day of each start is found
    /// among the window's day boundaries (computed once, a calendar call per day, not per start).
    public static func days(starting starts: some Sequence<Date>, in zone: TimeZone,
                            from first: CalendarDay, through last: CalendarDay) -> Set<CalendarDay> {
        guard first <= last else { return [] }
        let count = last.daysSince1970 - first.daysSince1970 + 1
        // bounds[i] is when day first + i begins; bounds[count] is when the day after `last` begins.
        let bounds = (0...count).map { first.adding(days: $0).start(in: zone) }
        var days = Set<CalendarDay>()
        for start in starts where start >= bounds[0] && start < bounds[count] {
            var (low, high) = (0, count)   // bounds[low] <= start < bounds[high]
            while high - low > 1 {
                let middle = (low + high) / 2
                if bounds[middle] <= start { low = middle } else { high = middle }
            }
            days.insert(first.adding(days: low))
        }
        return days
    }

    /// The runs of days from `first` through `last` that are not in `withData`, ascending.
    public static func gaps(withData: Set<CalendarDay>, from first: CalendarDay, through last: CalendarDay) -> [DayRun] {
        var runs: [DayRun] = []
        var open: CalendarDay?
        var day = first
        while day <= last {
            if withData.contains(day) {
                if let start = open { runs.append(DayRun(first: start, last: day.adding(days: -1))); open = nil }
            } else if open == nil {
                open = day
            }
            day = day.adding(days: 1)
        }
        if let start = open { runs.append(DayRun(first: start, last: last)) }
        return runs
    }
}
