import Foundation

/// RFC 3339 UTC timestamps with milliseconds for log lines, such as `2026-11-21T14:36:40.123Z`.
enum LogTimestamp {
    /// The current time, formatted.
    static func now() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return format(seconds: now.tv_sec, milliseconds: Int(now.tv_nsec / 1_000_000))
    }

    /// Formats a date without locale or time-zone surprises.
    static func format(_ date: Date) -> String {
        let seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        let millis = Int((date.timeIntervalSince1970 - Double(seconds)) * 1000)
        return format(seconds: seconds, milliseconds: min(millis, 999))
    }

    /// Formats whole seconds since 1970 and milliseconds digit by digit (no `String(format:)`: it is a
    /// large part of a log line's cost).
    static func format(seconds: time_t, milliseconds: Int) -> String {
        var seconds = seconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(unsafeUninitializedCapacity: 24) { buffer in
            func put(_ value: Int, _ digits: Int, at start: Int) {
                var value = value
                for index in stride(from: start + digits - 1, through: start, by: -1) {
                    buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            put(Int(parts.tm_year) + 1900, 4, at: 0)
            put(Int(parts.tm_mon) + 1, 2, at: 5)
            put(Int(parts.tm_mday), 2, at: 8)
            put(Int(parts.tm_hour), 2, at: 11)
            put(Int(parts.tm_min), 2, at: 14)
            put(Int(parts.tm_sec), 2, at: 17)
            put(milliseconds, 3, at: 20)
            (buffer[4], buffer[7], buffer[10], buffer[13]) = (UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "T"), UInt8(ascii: ":"))
            (buffer[16], buffer[19], buffer[23]) = (UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "Z"))
            return 24
        }
    }
}
