import CareSyncLocking
import Foundation

/// When calendar days start in time zones (ms since 1970), each computed once with Foundation's calendar and kept for
/// the process, so placing a write's samples on their local days costs dictionary lookups, not calendar calls (the
/// zone rules do not change while the process runs). At most `capacity` days are kept; past it the cache starts over.
public enum LocalDayStarts {
    /// A day in a zone.
    struct ZoneDay: Hashable {
        let zone: String
        let day: Int
    }

    /// The most days kept.
    static let capacity = 200_000
    private static let cache = Locked<[ZoneDay: Int64]>([:])

    /// The instant `day` starts in `zone` (local midnight, or the first instant after a skipped one), in ms.
    public static func start(of day: CalendarDay, in zone: TimeZone) -> Int64 {
        start(ofDay: day.daysSince1970, in: zone)
    }

    /// The calendar day in `zone` holding the instant `ms`.
    public static func day(of ms: Int64, in zone: TimeZone) -> CalendarDay {
        // The UTC day is within a day of the local one (offsets are under 24 hours); step to the day whose bounds hold it.
        var day = Int(ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000)
        while start(ofDay: day, in: zone) > ms { day -= 1 }
        while start(ofDay: day + 1, in: zone) <= ms { day += 1 }
        return CalendarDay(daysSince1970: day)
    }

    /// The start of the day `day` days after 1970-01-01 in `zone`, from the cache or computed and kept.
    static func start(ofDay day: Int, in zone: TimeZone) -> Int64 {
        let key = ZoneDay(zone: zone.identifier, day: day)
        if let known = cache.withLock({ $0[key] }) { return known }
        let computed = SyncRules.milliseconds(CalendarDay(daysSince1970: day).start(in: zone))
        cache.withLock {
            if $0.count >= capacity { $0.removeAll(keepingCapacity: true) }
            $0[key] = computed
        }
        return computed
    }
}
