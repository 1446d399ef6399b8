/// Where a report sits in a patient's report list: the list's order is week start, then identifier, then source.
public struct ReportPosition: Hashable, Sendable, Comparable {
    /// The report's week start.
    public var weekStart: CalendarDay
    /// The report's sync identifier.
    public var syncIdentifier: String
    /// The report's source.
    public var source: String

    /// A position from its parts.
    public init(weekStart: CalendarDay, syncIdentifier: String, source: String) {
        self.weekStart = weekStart; self.syncIdentifier = syncIdentifier; self.source = source
    }

    /// List order: week start, then identifier, then source, each compared bytewise (as the stores sort text).
    public static func < (a: ReportPosition, b: ReportPosition) -> Bool {
        if a.weekStart != b.weekStart { return a.weekStart < b.weekStart }
        if a.syncIdentifier != b.syncIdentifier { return Array(a.syncIdentifier.utf8).lexicographicallyPrecedes(b.syncIdentifier.utf8) }
        return Array(a.source.utf8).lexicographicallyPrecedes(b.source.utf8)
    }
}

/// One page of a patient's report list: which reports, from where, and how much one answer may hold.
public struct ReportListQuery: Hashable, Sendable {
    /// The patient.
    public var patient: String
    /// The first week start listed.
    public var from: CalendarDay
    /// The last week start listed.
    public var to: CalendarDay
    /// The page starts after this report; nil: at the first.
    public var after: ReportPosition?
    /// The most reports on the page.
    public var maxReports: Int
    /// The most samples on the page, all reports together; a page always holds at least one report.
    public var maxSamples: Int

    /// A page query.
    public init(patient: String, from: CalendarDay, to: CalendarDay, after: ReportPosition? = nil,
                maxReports: Int = 100, maxSamples: Int = 5_000) {
        self.patient = patient; self.from = from; self.to = to; self.after = after
        self.maxReports = maxReports; self.maxSamples = maxSamples
    }
}

/// A page of a patient's report list.
public struct ReportPage: Hashable, Sendable {
    /// The reports, in list order.
    public var reports: [WeeklyReport]
    /// Where the next page starts, when reports are left; nil on the last page.
    public var next: ReportPosition?
    /// A page from its parts.
    public init(reports: [WeeklyReport], next: ReportPosition?) { self.reports = reports; self.next = next }

    /// How many of the candidate reports (those after the query's position, in order, by the keys of their current
    /// versions; at most `maxReports + 1` of them) the page takes: whole reports within both budgets, at least one.
    public static func taken(_ keyCounts: [Int], query: ReportListQuery) -> Int {
        var taken = 0, samples = 0
        for count in keyCounts.prefix(query.maxReports) {
            if taken > 0 && samples + count > query.maxSamples { break }
            taken += 1
            samples += count
        }
        return taken
    }

    /// The page of `rows` (candidates as above, with their positions and key counts): what to load, and where the
    /// next page starts.
    public static func plan<Row>(_ rows: [Row], query: ReportListQuery, position: (Row) -> ReportPosition,
                                 keyCount: (Row) -> Int) -> (rows: ArraySlice<Row>, next: ReportPosition?) {
        let count = taken(rows.map(keyCount), query: query)
        return (rows.prefix(count), count < rows.count ? position(rows[count - 1]) : nil)
    }
}

extension SyncStore {
    /// Every report whose week starts within `[from, to]`, page after page (tests, exports; the API pages).
    public func allReports(patient: String, from: CalendarDay, to: CalendarDay) throws -> [WeeklyReport] {
        var query = ReportListQuery(patient: patient, from: from, to: to)
        var all: [WeeklyReport] = []
        while true {
            let page = try reports(query)
            all += page.reports
            guard let next = page.next else { return all }
            query.after = next
        }
    }
}
