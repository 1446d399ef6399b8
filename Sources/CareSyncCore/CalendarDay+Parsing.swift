import Foundation

/// `YYYY-MM-DD` parsing, day arithmetic and the instants a day spans in a time zone.
extension CalendarDay: CustomStringConvertible {
    /// Parses `YYYY-MM-DD` strictly (four-digit year, real month and day); nil otherwise.
    public init?(parsing text: String) {
        var scanner = DigitScanner(Array(text.utf8))
        guard let y = scanner.number(4), scanner.take(UInt8(ascii: "-")), let m = scanner.number(2),
              scanner.take(UInt8(ascii: "-")), let d = scanner.number(2), scanner.atEnd,
              y >= 1, Self.isValid(year: y, month: m, day: d) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// `YYYY-MM-DD` (a year outside 0…9999 as `RFC3339.pad` writes it), built in one buffer: status answers write
    /// thousands of days.
    public var description: String {
        guard (0...9999).contains(year) else { return RFC3339.pad(year, 4) + "-" + RFC3339.pad(month, 2) + "-" + RFC3339.pad(day, 2) }
        return String(unsafeUninitializedCapacity: 10) { buffer in
            func put(_ value: Int, at end: Int, width: Int) {
                var rest = value
                for i in stride(from: end, to: end - width, by: -1) { buffer[i] = UInt8(ascii: "0") + UInt8(rest % 10); rest /= 10 }
            }
            put(year, at: 3, width: 4)
            buffer[4] = UInt8(ascii: "-")
            put(month, at: 6, width: 2)
            buffer[7] = UInt8(ascii: "-")
            put(day, at: 9, width: 2)
            return 10
        }
    }

    /// Whether the fields name a real day of the proleptic Gregorian calendar.
    public static func isValid(year: Int, month: Int, day: Int) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

    /// Days from 1970-01-01 (negative before), by Howard Hinnant's days-from-civil.
    public var daysSince1970: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The day `days` after 1970-01-01.
    public init(daysSince1970 days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    /// This day moved by `days`.
    public func adding(days: Int) -> CalendarDay { CalendarDay(daysSince1970: daysSince1970 + days) }

    /// The instant this day starts in `timeZone` (local midnight, or the first instant after a skipped one).
    public func start(in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: year, month: month, day: day)
        if let date = calendar.date(from: components) { return calendar.startOfDay(for: date) }
        return Date(timeIntervalSince1970: Double(daysSince1970) * 86_400 - Double(timeZone.secondsFromGMT()))
    }
}
