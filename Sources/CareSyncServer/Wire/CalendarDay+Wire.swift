import Foundation
import CareSyncCore

extension CalendarDay {
    /// The calendar day an instant falls on in a time zone.
    static func of(_ date: Date, in zone: TimeZone) -> CalendarDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return CalendarDay(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1)
    }
}
