import Foundation

/// A calendar day, `YYYY-MM-DD`, with no time zone of its own.
public struct CalendarDay: Hashable, Comparable, Sendable {
    public var year: Int, month: Int, day: Int
    public init(year: Int, month: Int, day: Int) { self.year = year; self.month = month; self.day = day }
    public static func < (a: CalendarDay, b: CalendarDay) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }
}

/// One test inside a weekly report, keyed within it; its sync identifier is `<report>/<key>`.
public struct WeeklyReportSampleInput: Hashable, Sendable {
    public var key: String
    public var sample: SampleInput
    public init(key: String, sample: SampleInput) { self.key = key; self.sample = sample }
}

/// A weekly report as a therapist posts it, validated and converted to canonical units.
public struct WeeklyReportInput: Hashable, Sendable {
    public var syncIdentifier: String
    public var syncVersion: Int64
    public var weekStart: CalendarDay
    public var timeZone: String
    public var samples: [WeeklyReportSampleInput]
    public init(syncIdentifier: String, syncVersion: Int64, weekStart: CalendarDay, timeZone: String, samples: [WeeklyReportSampleInput]) {
        self.syncIdentifier = syncIdentifier; self.syncVersion = syncVersion; self.weekStart = weekStart
        self.timeZone = timeZone; self.samples = samples
    }
}

/// The stored current version of a weekly report, with its samples (and their uuids), keyed.
public struct WeeklyReport: Hashable, Sendable {
    public var syncIdentifier: String
    public var syncVersion: Int64
    public var weekStart: CalendarDay
    public var timeZone: String
    public var source: String
    public var samples: [String: Sample]
    public var updatedAt: Date
    public init(syncIdentifier: String, syncVersion: Int64, weekStart: CalendarDay, timeZone: String,
                source: String, samples: [String: Sample], updatedAt: Date) {
        self.syncIdentifier = syncIdentifier; self.syncVersion = syncVersion; self.weekStart = weekStart
        self.timeZone = timeZone; self.source = source; self.samples = samples; self.updatedAt = updatedAt
    }
}

/// What posting a report did, with the anchor after its commit and the report as now stored.
public struct WeeklyReportUpsertResult: Hashable, Sendable {
    public enum Outcome: String, Hashable, Sendable { case inserted, replaced, ignored }
    public var outcome: Outcome
    public var anchor: Anchor
    public var report: WeeklyReport
    public init(outcome: Outcome, anchor: Anchor, report: WeeklyReport) { self.outcome = outcome; self.anchor = anchor; self.report = report }
}
