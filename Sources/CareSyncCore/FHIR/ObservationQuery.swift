import Foundation

/// A checked Observation search (docs/fhir.md): whose, which codes and dates, how many, in which order, after which item.
public struct ObservationQuery: Hashable, Sendable {
    /// The patient id.
    public var patient: String
    /// `code` parameters: each one a comma list (any of its tokens), every parameter must match.
    public var codes: [[FHIRTokenParameter]] = []
    /// `date` parameters, every one must match.
    public var dates: [FHIRDateParameter] = []
    /// `_lastUpdated` parameters (the write time, `WriteTimes`), every one must match.
    public var lastUpdated: [FHIRDateParameter] = []
    /// Entries per page.
    public var count: Int
    /// `_sort=-date`: newest first.
    public var descending = false
    /// The last item of the previous page (`_cursor`); the page starts after it.
    public var cursor: ObservationCursor?
    /// The last day of the previous page of a daily-total search (`_cursor=YYYY-MM-DD`).
    public var dayCursor: CalendarDay?

    /// A search of `patient`'s Observations, `count` a page.
    public init(patient: String, count: Int) { self.patient = patient; self.count = count }

    /// The types the codes allow; nil for every type.
    public var types: Set<SampleType>? {
        codes.reduce(nil as Set<SampleType>?) { set, tokens in
            let any = tokens.reduce(into: Set<SampleType>()) { $0.formUnion($1.types) }
            return set.map { $0.intersection(any) } ?? any
        }
    }

    /// Whether the search answers daily totals instead of samples: some `code` parameter names them (`namesDailyTotals`)
    /// and every one matches them (docs/fhir.md "Daily step totals").
    public var asksForDailyTotals: Bool {
        codes.contains { $0.contains(where: \.namesDailyTotals) } && codes.allSatisfy { $0.contains(where: \.matchesDailyTotals) }
    }

    /// The time window the store may narrow its read to, in milliseconds (`[from, to)`, nil: unbounded).
    public var storeBounds: (from: Int64?, to: Int64?) {
        dates.reduce((nil as Int64?, nil as Int64?)) { bounds, date in
            let b = date.storeBounds
            let from = [bounds.0, b.from].compactMap { $0 }.max(), to = [bounds.1, b.to].compactMap { $0 }.min()
            return (from, to)
        }
    }

    /// Whether `sample` meets every date parameter.
    public func matchesDates(_ sample: Sample) -> Bool {
        let start = SyncRules.milliseconds(sample.start), end = SyncRules.milliseconds(sample.end)
        return dates.allSatisfy { $0.matches(start: start, end: end) }
    }

    /// Whether a day `[start, end)` (milliseconds; matched as the span from `start` to its last millisecond) meets every
    /// date parameter.
    public func matchesDates(day total: DailyTotal) -> Bool {
        let start = SyncRules.milliseconds(total.start), end = SyncRules.milliseconds(total.end) - 1
        return dates.allSatisfy { $0.matches(start: start, end: end) }
    }

    /// Whether a sample written at `writeTime` meets every `_lastUpdated` parameter (one of unknown write time meets none).
    public func matchesLastUpdated(_ writeTime: Date?) -> Bool {
        guard !lastUpdated.isEmpty else { return true }
        guard let writeTime else { return false }
        let ms = SyncRules.milliseconds(writeTime)
        return lastUpdated.allSatisfy { $0.matches(start: ms, end: ms) }
    }

    /// Whether `a` comes before `b` in this search's order (start time, then uuid; reversed for `-date`).
    public func precedes(_ a: ObservationCursor, _ b: ObservationCursor) -> Bool {
        descending ? b < a : a < b
    }

    /// Whether `sample` lies after the cursor (every sample when there is none).
    public func isAfterCursor(_ sample: Sample) -> Bool {
        guard let cursor else { return true }
        return precedes(cursor, ObservationCursor(sample))
    }
}

/// A position in an Observation search's order: a sample's start and uuid. Written `<ms>.<uuid>` in `_cursor`.
public struct ObservationCursor: Hashable, Sendable, Comparable {
    /// The sample's start, milliseconds since 1970.
    public var start: Int64
    /// The sample's uuid, lower case.
    public var uuid: String

    /// The position of `sample`.
    public init(_ sample: Sample) { start = SyncRules.milliseconds(sample.start); uuid = ObservationMapper.id(of: sample.uuid) }

    /// Parses `<ms>.<uuid>`; nil when malformed.
    public init?(text: String) {
        let parts = text.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let ms = Int64(parts[0]), let uuid = ObservationMapper.uuid(ofID: String(parts[1])) else { return nil }
        start = ms; self.uuid = ObservationMapper.id(of: uuid)
    }

    /// The `_cursor` text.
    public var text: String { "\(start).\(uuid)" }

    /// Start time first, then uuid.
    public static func < (a: Self, b: Self) -> Bool { (a.start, a.uuid) < (b.start, b.uuid) }
}

/// Keeps the first `count + 1` matches of a search in its order while the whole feed streams past, in bounded memory.
public struct ObservationPageCollector: Sendable {
    /// The search.
    public let query: ObservationQuery
    /// Every match seen (`Bundle.total`).
    public private(set) var total = 0
    private var kept: [Sample] = []
    /// The write times of the kept samples.
    private var times: [UUID: Date] = [:]

    /// A collector for `query`.
    public init(query: ObservationQuery) { self.query = query }

    /// Offers one sample of the right types, written at `writeTime`: counted when it matches the dates and `_lastUpdated`,
    /// kept when it also lies after the cursor among the first `count + 1`.
    public mutating func offer(_ sample: Sample, writeTime: Date? = nil) {
        guard query.matchesDates(sample), query.matchesLastUpdated(writeTime) else { return }
        total += 1
        guard query.isAfterCursor(sample) else { return }
        kept.append(sample)
        if let writeTime { times[sample.uuid] = writeTime }
        if kept.count >= 4 * (query.count + 1) + 64 { trim() }
    }

    /// The page, in order, and whether more follow it.
    public mutating func page() -> (samples: [Sample], hasMore: Bool) {
        trim()
        let hasMore = kept.count > query.count
        return (Array(kept.prefix(query.count)), hasMore)
    }

    /// The write time of a kept sample, when it was offered with one.
    public func writeTime(of uuid: UUID) -> Date? { times[uuid] }

    /// Sorts and keeps the first `count + 1`.
    private mutating func trim() {
        let q = query
        kept.sort { q.precedes(ObservationCursor($0), ObservationCursor($1)) }
        if kept.count > q.count + 1 {
            for dropped in kept[(q.count + 1)...] { times[dropped.uuid] = nil }
            kept.removeLast(kept.count - q.count - 1)
        }
    }
}
