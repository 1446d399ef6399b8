import Foundation

/// A calendar day, `YYYY-MM-DD`, with no time zone of its own.
public struct CalendarDay: Hashable, Comparable, Sendable {
    /// The year, such as 2020.
    public var year: Int, month: Int, day: Int
    /// Creates a value from its fields.
    public init(year: Int, month: Int, day: Int) { self.year = year; self.month = month; self.day = day }
    /// Calendar order.
    public static func < (a: CalendarDay, b: CalendarDay) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }
}

/// One test inside a weekly report, keyed within it; its sync identifier is `<report>/<key>`.
public struct WeeklyReportSampleInput: Hashable, Sendable {
    /// The key within the report, such as `2020-06-18`.
    public var key: String
    /// The sample as posted.
    public var sample: SampleInput
    /// Creates a value from its fields.
    public init(key: String, sample: SampleInput) { self.key = key; self.sample = sample }
}

/// A weekly report as a therapist posts it, validated and converted to canonical units.
public struct WeeklyReportInput: Hashable, Sendable {
    /// The report's sync identifier, such as `report-2020-W25`.
    public var syncIdentifier: String
    /// The report's version.
    public var syncVersion: Int64
    /// The first day of the week.
    public var weekStart: CalendarDay
    /// The IANA time zone the week is read in.
    public var timeZone: String
    /// The tests in the post, in order.
    public var samples: [WeeklyReportSampleInput]
    /// Creates a value from its fields.
    public init(syncIdentifier: String, syncVersion: Int64, weekStart: CalendarDay, timeZone: String, samples: [WeeklyReportSampleInput]) {
        self.syncIdentifier = syncIdentifier; self.syncVersion = syncVersion; self.weekStart = weekStart
        self.timeZone = timeZone; self.samples = samples
    }
}

/// The stored current version of a weekly report, with its samples (and their uuids), keyed.
public struct WeeklyReport: Hashable, Sendable {
    /// The report's sync identifier, such as `report-2020-W25`.
    public var syncIdentifier: String
    /// The report's version.
    public var syncVersion: Int64
    /// The first day of the week.
    public var weekStart: CalendarDay
    /// The IANA time zone the week is read in.
    public var timeZone: String
    /// The app (therapist client) that posted it.
    public var source: String
    /// The current samples, by key.
    public var samples: [String: Sample]
    /// When this version was stored.
    public var updatedAt: Date
    /// Creates a value from its fields.
    public init(syncIdentifier: String, syncVersion: Int64, weekStart: CalendarDay, timeZone: String,
                source: String, samples: [String: Sample], updatedAt: Date) {
        self.syncIdentifier = syncIdentifier; self.syncVersion = syncVersion; self.weekStart = weekStart
        self.timeZone = timeZone; self.source = source; self.samples = samples; self.updatedAt = updatedAt
    }
}

/// What posting a report did, with the anchor after its commit and the report as now stored.
public struct WeeklyReportUpsertResult: Hashable, Sendable {
    /// `inserted` (new report), `replaced` (higher version) or `ignored` (equal or lower).
    public enum Outcome: String, Hashable, Sendable { case inserted, replaced, ignored }
    /// What happened.
    public var outcome: Outcome
    /// The anchor just after this point of the change log.
    public var anchor: Anchor
    /// The report as now stored.
    public var report: WeeklyReport
    /// Creates a value from its fields.
    public init(outcome: Outcome, anchor: Anchor, report: WeeklyReport) { self.outcome = outcome; self.anchor = anchor; self.report = report }
}
