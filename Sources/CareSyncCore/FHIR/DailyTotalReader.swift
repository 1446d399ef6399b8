import Foundation

/// Reads a patient's daily step totals from a store's statistics, a bounded window of days at a time, so a patient with
/// years of steps never has them all in memory (docs/fhir.md "Daily step totals").
public struct DailyTotalReader: Sendable {
    /// The store.
    public let store: any SyncStore
    /// The patient.
    public let patient: String
    /// The patient's time zone (IANA identifier), whose calendar days the totals are.
    public let zone: TimeZone
    /// Samples read per change-feed page while finding the span of the patient's steps.
    public var scanPage = 5000
    /// Days per statistics query.
    public var windowDays = 92

    /// A reader of `patient`'s totals in `zone`.
    public init(store: any SyncStore, patient: String, zone: TimeZone) {
        self.store = store; self.patient = patient; self.zone = zone
    }

    /// The earliest start, latest end and sources of the patient's step samples that overlap `[from, to)` (nil: unbounded).
    public struct Span: Hashable, Sendable {
        /// The earliest start.
        public var start: Date
        /// The latest end.
        public var end: Date
        /// Every source of those samples.
        public var sources: Set<String>
    }

    /// The span of the step samples overlapping `[from, to)`, or nil when there are none: reads the patient's step feed,
    /// keeping three figures.
    public func span(from: Date?, to: Date?) throws -> Span? {
        var span: Span?
        var feed = ChangeQuery(patient: patient, types: [DailyTotalCode.type], limit: scanPage, from: from, to: to)
        while true {
            let changes = try store.changes(feed)
            for s in changes.samples {
                guard var known = span else { span = Span(start: s.start, end: s.end, sources: [s.source]); continue }
                known.start = min(known.start, s.start); known.end = max(known.end, s.end); known.sources.insert(s.source)
                span = known
            }
            guard changes.hasMore else { return span }
            feed.anchor = changes.anchor
        }
    }

    /// The days from `first` through `last` that the span may touch, cut to the store bounds of a search (milliseconds).
    public func days(of span: Span, within bounds: (from: Int64?, to: Int64?)) -> ClosedRange<CalendarDay>? {
        var first = DeviceDays.day(of: span.start, in: zone), last = DeviceDays.day(of: span.end, in: zone)
        if let from = bounds.from { first = max(first, DeviceDays.day(of: SyncRules.date(milliseconds: from), in: zone)) }
        if let to = bounds.to { last = min(last, DeviceDays.day(of: SyncRules.date(milliseconds: to - 1), in: zone)) }
        return first <= last ? first...last : nil
    }

    /// Calls `each` with every day of `days` that has a sum, ascending: the `cumulativeSum` of statistics with interval
    /// day anchored at local midnight, sources in `priority` order (the web app's default: `defaultPriority`).
    public func totals(_ days: ClosedRange<CalendarDay>, priority: [String], _ each: (DailyTotal) -> Void) throws {
        var first = days.lowerBound
        while first <= days.upperBound {
            let last = min(first.adding(days: windowDays - 1), days.upperBound)
            let start = first.start(in: zone)
            let query = StatisticsQuery(type: DailyTotalCode.type, start: start, end: last.adding(days: 1).start(in: zone),
                                        interval: .day, anchorDate: start, timeZone: zone.identifier, options: .cumulativeSum,
                                        priority: priority)
            for bucket in try store.statistics(patient: patient, query: query).buckets {
                guard let sum = bucket.values.sum else { continue }
                each(DailyTotal(patient: patient, day: DeviceDays.day(of: bucket.start, in: zone), start: bucket.start, end: bucket.end,
                                zone: zone, steps: sum))
            }
            first = last.adding(days: 1)
        }
    }

    /// Sources in the web app's default priority (`defaultRank` in patient.js): names holding "watch", then "phone", then
    /// the rest, each group by name; the chart of a therapist who has not reordered the sources counts this way.
    public static func defaultPriority(_ sources: Set<String>) -> [String] {
        func rank(_ s: String) -> Int {
            let lower = s.lowercased()
            return lower.contains("watch") ? 0 : lower.contains("phone") ? 1 : 2
        }
        return sources.sorted { a, b in
            rank(a) != rank(b) ? rank(a) < rank(b) : a.utf16.lexicographicallyPrecedes(b.utf16)
        }
    }
}
