import Foundation

/// Bucket boundaries on the calendar of one time zone: bucket `k` starts at `anchor + k × interval`,
/// added as calendar components (wall-clock days, weeks, months) so DST days are 23 or 25 hours.
struct BucketCalendar {
    let calendar: Calendar
    let interval: StatisticsInterval
    let anchor: Date

    /// Monday 00:00 in the calendar's time zone (2001-01-01 was a Monday).
    static func defaultAnchor(in calendar: Calendar) -> Date {
        calendar.date(from: DateComponents(year: 2001, month: 1, day: 1, hour: 0, minute: 0, second: 0))
            ?? Date(timeIntervalSinceReferenceDate: 0)  // Monday 2001-01-01 00:00 UTC; not reached for a Gregorian calendar
    }

    /// The start of bucket `k`, always added from the anchor (never step by step, so nothing drifts).
    func start(_ k: Int) -> Date {
        switch interval {
        case .hour: return anchor.addingTimeInterval(Double(k) * 3_600)
        case .day: return calendar.date(byAdding: .day, value: k, to: anchor) ?? anchor.addingTimeInterval(Double(k) * 86_400)
        case .week: return calendar.date(byAdding: .day, value: 7 * k, to: anchor) ?? anchor.addingTimeInterval(Double(k) * 604_800)
        case .month:
            return calendar.date(byAdding: .month, value: k, to: anchor) ?? anchor.addingTimeInterval(Double(k) * interval.nominalSeconds)
        }
    }

    /// The index of the bucket holding `date`.
    func index(of date: Date) -> Int {
        var k = Int((date.timeIntervalSince(anchor) / interval.nominalSeconds).rounded(.down))
        while start(k) > date { k -= 1 }
        while start(k + 1) <= date { k += 1 }
        return k
    }

    /// Boundaries in ms of the buckets meeting `[from, to)`, cut to the range; nil past `limit` buckets.
    func bounds(from: Date, to: Date, limit: Int) -> [Int64]? {
        let endMs = SyncRules.milliseconds(to)
        var bounds = [SyncRules.milliseconds(from)]
        var k = index(of: from) + 1
        while true {
            let boundary = SyncRules.milliseconds(start(k))
            if boundary >= endMs { break }
            if boundary > bounds[bounds.count - 1] { bounds.append(boundary) }
            if bounds.count > limit { return nil }
            k += 1
        }
        bounds.append(endMs)
        return bounds
    }
}
