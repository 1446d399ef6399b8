import Foundation

/// Calendar days in a patient's time zone: the day of an instant, and the runs of days that hold no data.
public enum DeviceDays {
    /// The calendar day `instant` falls on in `zone`.
    public static func day(of instant: Date, in zone: TimeZone) -> CalendarDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day], from: instant)
        return CalendarDay(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1)
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
