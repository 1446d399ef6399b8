import Foundation

/// One value of a FHIR `date` search parameter: a prefix and the range its precision implies
/// (FHIR R4 "Search", date: `2020-06-18` is the whole UTC day, `ge2020-06` every instant from June on).
public struct FHIRDateParameter: Hashable, Sendable {
    /// FHIR's comparison prefixes.
    public enum Prefix: String, Sendable, CaseIterable {
        case eq, ne, lt, gt, le, ge
    }

    /// The comparison.
    public var prefix: Prefix
    /// Start of the search value's range, inclusive, in milliseconds since 1970.
    public var lower: Int64
    /// End of the search value's range, exclusive.
    public var upper: Int64

    /// Parses `[prefix]value`: a year, year-month, date (UTC days), or a date-time with an offset or `Z` (to the
    /// minute, second or millisecond). Nil when it is none of these.
    public init?(_ text: String) {
        var rest = Substring(text)
        prefix = .eq
        if let p = Prefix.allCases.first(where: { rest.hasPrefix($0.rawValue) }) { prefix = p; rest = rest.dropFirst(2) }
        guard let (lower, upper) = Self.range(String(rest)) else { return nil }
        self.lower = lower; self.upper = upper
    }

    /// Whether a sample over `[start, end]` (milliseconds) matches: `eq` when the search range contains it, `gt` when it
    /// reaches the range above the search value, `lt` when it begins below it, `ge`/`le` either, `ne` not `eq`.
    public func matches(start: Int64, end: Int64) -> Bool {
        let contained = start >= lower && end < upper
        switch prefix {
        case .eq: return contained
        case .ne: return !contained
        case .gt: return end >= upper
        case .lt: return start < lower
        case .ge: return end >= upper || contained
        case .le: return start < lower || contained
        }
    }

    /// The widest `[from, to)` the store may narrow its read to (nil: unbounded); the exact test is `matches`.
    public var storeBounds: (from: Int64?, to: Int64?) {
        switch prefix {
        case .eq: return (lower - 1, upper)
        case .ne: return (nil, nil)
        case .gt: return (upper - 1, nil)
        case .ge: return (lower - 1, nil)
        case .lt: return (nil, lower)
        case .le: return (nil, upper)
        }
    }

    /// The range `[lower, upper)` of a value by its precision, or nil.
    static func range(_ text: String) -> (Int64, Int64)? {
        let bytes = Array(text.utf8)
        func digits(_ r: Range<Int>) -> Int? {
            guard r.upperBound <= bytes.count, bytes[r].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return Int(String(decoding: bytes[r], as: UTF8.self))
        }
        func day(_ y: Int, _ m: Int, _ d: Int) -> Int64? {
            guard y >= 1, CalendarDay.isValid(year: y, month: m, day: d) else { return nil }
            return Int64(CalendarDay(year: y, month: m, day: d).daysSince1970) * 86_400_000
        }
        switch bytes.count {
        case 4:
            guard let y = digits(0..<4), let a = day(y, 1, 1), let b = day(y + 1, 1, 1) else { return nil }
            return (a, b)
        case 7:
            guard bytes[4] == 45, let y = digits(0..<4), let m = digits(5..<7), (1...12).contains(m), let a = day(y, m, 1),
                  let b = m == 12 ? day(y + 1, 1, 1) : day(y, m + 1, 1) else { return nil }
            return (a, b)
        case 10:
            guard bytes[4] == 45, bytes[7] == 45, let y = digits(0..<4), let m = digits(5..<7), let d = digits(8..<10),
                  let a = day(y, m, d) else { return nil }
            return (a, a + 86_400_000)
        default:
            // A date-time: to the minute (`T10:00Z`), the second or the millisecond.
            guard bytes.count > 16, bytes[10] == 84 || bytes[10] == 116 else { return nil }
            var full = text, width: Int64
            if bytes.count >= 17, bytes[16] != 58 {
                full = String(text.prefix(16)) + ":00" + String(text.dropFirst(16)); width = 60_000
            } else if bytes.count > 19, bytes[19] == 46 {
                width = 1
            } else {
                width = 1000
            }
            guard let ms = RFC3339.parseMilliseconds(full) else { return nil }
            return (ms, ms + width)
        }
    }
}
