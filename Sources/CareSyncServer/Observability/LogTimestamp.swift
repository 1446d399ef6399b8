import Foundation

/// RFC 3339 UTC timestamps with milliseconds for log lines, such as `2026-11-21T14:36:40.123Z`.
enum LogTimestamp {
    /// The current time, formatted.
    static func now() -> String {
        format(Date())
    }

    /// Formats a date without locale or time-zone surprises.
    static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        let millis = Int((date.timeIntervalSince1970 - Double(seconds)) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
            Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), min(millis, 999))
    }
}
