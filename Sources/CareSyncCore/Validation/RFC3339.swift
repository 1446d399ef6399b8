import Foundation

/// RFC 3339 timestamps as api.md wants them: an offset or `Z` is required on input; digits finer than a
/// millisecond are truncated (not rounded); output is always UTC with exactly three fractional digits.
///
///     RFC3339.parse("2020-06-18T09:30:00Z")          // 2020-06-18 09:30 UTC
///     RFC3339.parse("2020-06-18T10:00:00.1234-07:00") // .123 s, 17:00 UTC
///     RFC3339.parse("2020-06-18T09:30:00")           // nil: no offset
public enum RFC3339 {
    /// The instant, truncated to milliseconds, or nil when the text is not an RFC 3339 date-time with offset.
    public static func parse(_ text: String) -> Date? {
        parseMilliseconds(text).map(SyncRules.date(milliseconds:))
    }

    /// Milliseconds since 1970 for an RFC 3339 date-time with offset, or nil.
    public static func parseMilliseconds(_ text: String) -> Int64? {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(4), scanner.take(UInt8(ascii: "-")),
              let month = scanner.number(2), scanner.take(UInt8(ascii: "-")),
              let day = scanner.number(2),
              scanner.take(UInt8(ascii: "T")) || scanner.take(UInt8(ascii: "t")),
              let hour = scanner.number(2), scanner.take(UInt8(ascii: ":")),
              let minute = scanner.number(2), scanner.take(UInt8(ascii: ":")),
              let second = scanner.number(2) else { return nil }
        var millis = 0
        if scanner.take(UInt8(ascii: ".")) {
            var digits = 0
            while let digit = scanner.digit() {
                if digits < 3 { millis = millis * 10 + digit }
                digits += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { millis *= 10 }
        }
        var offsetMinutes = 0
        if scanner.take(UInt8(ascii: "Z")) || scanner.take(UInt8(ascii: "z")) {
            offsetMinutes = 0
        } else {
            let sign: Int
            if scanner.take(UInt8(ascii: "+")) { sign = 1 } else if scanner.take(UInt8(ascii: "-")) { sign = -1 } else { return nil }
            guard let oh = scanner.number(2), scanner.take(UInt8(ascii: ":")), let om = scanner.number(2),
                  oh <= 23, om <= 59 else { return nil }
            offsetMinutes = sign * (oh * 60 + om)
        }
        guard scanner.atEnd, year >= 1, CalendarDay.isValid(year: year, month: month, day: day),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        let days = CalendarDay(year: year, month: month, day: day).daysSince1970
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        return seconds * 1000 + Int64(millis)
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` in UTC, always with three fractional digits (one form a strict decoder reads).
    public static func format(_ date: Date) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(24)
        write(date, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `format(date)`'s UTF-8 to `out` without building a string (every feed sample writes two).
    public static func write(_ date: Date, into out: inout [UInt8]) {
        let ms = SyncRules.milliseconds(date)
        let (seconds, millis) = (ms.floorDiv(1000), ms.floorMod(1000))
        let day = CalendarDay(daysSince1970: Int(seconds.floorDiv(86_400)))
        let inDay = Int(seconds.floorMod(86_400))
        guard (0...9999).contains(day.year) else {
            // Outside four-digit years (never stored): the padded text as it has always been written.
            let text = day.description + "T" + pad(inDay / 3600, 2) + ":" + pad(inDay / 60 % 60, 2) + ":" + pad(inDay % 60, 2)
            out += (text + "." + pad(Int(millis), 3) + "Z").utf8
            return
        }
        digits(day.year, 4, into: &out); out.append(UInt8(ascii: "-"))
        digits(day.month, 2, into: &out); out.append(UInt8(ascii: "-"))
        digits(day.day, 2, into: &out); out.append(UInt8(ascii: "T"))
        digits(inDay / 3600, 2, into: &out); out.append(UInt8(ascii: ":"))
        digits(inDay / 60 % 60, 2, into: &out); out.append(UInt8(ascii: ":"))
        digits(inDay % 60, 2, into: &out); out.append(UInt8(ascii: "."))
        digits(Int(millis), 3, into: &out); out.append(UInt8(ascii: "Z"))
    }

    /// Appends `value` (0 ≤ value < 10^width) as exactly `width` decimal digits.
    static func digits(_ value: Int, _ width: Int, into out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
