import Foundation
import CareSyncCore

/// RFC 3339 timestamps and `YYYY-MM-DD` days as the wire carries them; a timestamp without an offset is refused.
public enum RFC3339 {
    /// Parses `2020-06-18T09:30:00Z`, `2020-06-18T09:30:00.250-07:00`; nil for anything else.
    public static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count >= 20 else { return nil }
        func digits(_ at: Int, _ n: Int) -> Int? {
            guard at + n <= b.count else { return nil }
            var v = 0
            for i in at..<(at + n) {
                let c = b[i]
                guard c >= 48, c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard let year = digits(0, 4), b[4] == 45, let month = digits(5, 2), b[7] == 45, let day = digits(8, 2),
              b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
              let hour = digits(11, 2), b[13] == 58, let minute = digits(14, 2), b[16] == 58, let second = digits(17, 2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count, b[i] == 46 {
            i += 1
            var scale = 0.1
            let startDigits = i
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                fraction += Double(b[i] - 48) * scale
                scale /= 10
                i += 1
            }
            guard i > startDigits, i - startDigits <= 9 else { return nil }
        }
        guard i < b.count else { return nil }
        var offsetSeconds = 0
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            i += 1
        } else if b[i] == 43 || b[i] == 45 {
            let sign = b[i] == 43 ? 1 : -1
            guard let oh = digits(i + 1, 2), i + 3 < b.count, b[i + 3] == 58, let om = digits(i + 4, 2),
                  oh < 24, om < 60 else { return nil }
            offsetSeconds = sign * (oh * 3600 + om * 60)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let local = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
        // Keep millisecond precision, as the store does.
        let seconds = ((local - Double(offsetSeconds)) * 1000).rounded() / 1000
        return Date(timeIntervalSince1970: seconds)
    }

    /// Formats in UTC with `Z`, with milliseconds only when they are not zero.
    public static func format(_ date: Date) -> String {
        let totalMillis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var days = totalMillis / 86_400_000
        var rem = totalMillis % 86_400_000
        if rem < 0 { rem += 86_400_000; days -= 1 }
        let (y, m, d) = civilFromDays(Int(days))
        let ms = Int(rem % 1000)
        let secs = Int(rem / 1000)
        var s = pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T"
        s += pad(secs / 3600, 2) + ":" + pad(secs / 60 % 60, 2) + ":" + pad(secs % 60, 2)
        if ms != 0 { s += "." + pad(ms, 3) }
        return s + "Z"
    }

    /// Parses `YYYY-MM-DD`; nil when malformed or not a real day.
    public static func parseDay(_ text: String) -> CalendarDay? {
        let b = Array(text.utf8)
        guard b.count == 10, b[4] == 45, b[7] == 45 else { return nil }
        func num(_ r: Range<Int>) -> Int? {
            var v = 0
            for i in r { guard b[i] >= 48, b[i] <= 57 else { return nil }; v = v * 10 + Int(b[i] - 48) }
            return v
        }
        guard let y = num(0..<4), let m = num(5..<7), let d = num(8..<10),
              (1...12).contains(m), d >= 1, d <= daysIn(month: m, year: y) else { return nil }
        return CalendarDay(year: y, month: m, day: d)
    }

    /// Formats a day as `YYYY-MM-DD`.
    public static func formatDay(_ day: CalendarDay) -> String {
        pad(day.year, 4) + "-" + pad(day.month, 2) + "-" + pad(day.day, 2)
    }

    /// The day `n` days after `day`.
    public static func adding(_ n: Int, to day: CalendarDay) -> CalendarDay {
        let (y, m, d) = civilFromDays(daysFromCivil(year: day.year, month: day.month, day: day.day) + n)
        return CalendarDay(year: y, month: m, day: d)
    }

    /// The instant a calendar day starts in a time zone.
    public static func startOfDay(_ day: CalendarDay, in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let comps = DateComponents(year: day.year, month: day.month, day: day.day)
        return calendar.date(from: comps) ?? Date(timeIntervalSince1970: Double(daysFromCivil(year: day.year, month: day.month, day: day.day) * 86_400))
    }

    /// The calendar day an instant falls on in a time zone.
    public static func day(of date: Date, in zone: TimeZone) -> CalendarDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return CalendarDay(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1)
    }

    static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }
}
