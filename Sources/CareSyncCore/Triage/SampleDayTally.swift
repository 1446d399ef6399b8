import Foundation

/// Adds samples into `SampleDay` figures for the days from `first` through `last` in one time zone: a sample's start
/// counts on the day holding it, a cumulative sample's value is split across the days its time covers in proportion
/// (exactly the statistics engine's `CumulativeSums` arithmetic); what lies outside the days is left out. The days'
/// bounds come from `LocalDayStarts`, so a sample costs a binary search, not a calendar call.
public struct SampleDayTally {
    /// The first day.
    public let first: CalendarDay
    /// `bounds[i]` is when day `first + i` begins (ms since 1970); the last entry is when the day after the range begins.
    let bounds: [Int64]
    private var figures: [Key: SampleDay] = [:]

    /// A (day, source, type) of the figures.
    struct Key: Hashable {
        let day: Int
        let source: String
        let type: SampleType
    }

    /// An empty tally of the days from `first` through `last` (none when `last` is before `first`).
    public init(zone: TimeZone, from first: CalendarDay, through last: CalendarDay) {
        self.first = first
        let count = max(0, last.daysSince1970 - first.daysSince1970 + 1)
        bounds = (0...count).map { LocalDayStarts.start(of: first.adding(days: $0), in: zone) }
    }

    /// An empty tally of the days holding the instants from `earliest` through `latest` (ms since 1970).
    public init(zone: TimeZone, covering earliest: Int64, through latest: Int64) {
        self.init(zone: zone, from: LocalDayStarts.day(of: earliest, in: zone), through: LocalDayStarts.day(of: max(earliest, latest), in: zone))
    }

    /// The instants the tally covers, in ms: from the first day's start to the end of the last day.
    public var range: Range<Int64> { bounds[0]..<bounds[bounds.count - 1] }

    /// The index of the day holding `instant`, which must lie in `range`.
    private func index(of instant: Int64) -> Int {
        var (low, high) = (0, bounds.count - 1)   // bounds[low] <= instant < bounds[high]
        while high - low > 1 {
            let middle = (low + high) / 2
            if bounds[middle] <= instant { low = middle } else { high = middle }
        }
        return low
    }

    /// Adds one live sample `[start, end)` (ms) of `source` and `type` with `value`.
    public mutating func add(source: String, type: SampleType, start: Int64, end: Int64, value: Double) {
        let range = self.range
        if range.contains(start) {
            let i = index(of: start)
            update(i, source, type) {
                $0.starts += 1
                $0.newestStart = max($0.newestStart ?? .distantPast, SyncRules.date(milliseconds: start))
            }
        }
        guard type.isCumulative else { return }
        let duration = end - start
        if duration <= 0 {
            if range.contains(start) { update(index(of: start), source, type) { $0.counted += 1; $0.sum += value } }
            return
        }
        let from = max(start, range.lowerBound), to = min(end, range.upperBound)
        guard from < to else { return }
        var i = index(of: from)
        while i < bounds.count - 1 && bounds[i] < to {
            let overlap = min(to, bounds[i + 1]) - max(from, bounds[i])
            if overlap > 0 {
                let piece = overlap == duration ? value : value * Double(overlap) / Double(duration)
                update(i, source, type) { $0.counted += 1; $0.sum += piece }
            }
            i += 1
        }
    }

    /// Applies `change` to the figures of day `i`, making them when absent.
    private mutating func update(_ i: Int, _ source: String, _ type: SampleType, _ change: (inout SampleDay) -> Void) {
        let key = Key(day: first.daysSince1970 + i, source: source, type: type)
        change(&figures[key, default: SampleDay(day: first.adding(days: i), source: source, type: type, starts: 0, newestStart: nil,
                                                 counted: 0, sum: 0)])
    }

    /// The figures, by day, then source, then type.
    public var days: [SampleDay] {
        figures.values.sorted { ($0.day, $0.source, $0.type.rawValue) < ($1.day, $1.source, $1.type.rawValue) }
    }
}
