#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import CareSyncLocking

/// The IMF-fixdate for the `Date` field ("Sun, 06 Nov 1994 08:49:37 GMT"), cached per second.
enum HTTPDate {
    private static let cache = Locked<(second: Int, text: String)>((-1, ""))
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The current date, formatted.
    static func now() -> String {
        let second = time(nil)
        return cache.withLock { entry in
            if entry.second != second {
                entry = (second, format(second))
            }
            return entry.text
        }
    }

    /// Formats seconds since 1970 as an IMF-fixdate.
    static func format(_ seconds: Int) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
