/// A weekly report as decoded from JSON, before validation.
public struct WeeklyReportDraft: Hashable, Sendable {
    /// The report's sync identifier, such as `report-2020-W25`.
    public var syncIdentifier: String?
    /// The report's version.
    public var syncVersion: Int64?
    /// `YYYY-MM-DD`, the first day of the week.
    public var weekStart: String?
    /// The IANA time zone the week is read in.
    public var timeZone: String?
    /// The tests in the report.
    public var samples: [WeeklyReportSampleDraft]
    /// Creates a draft.
    public init(syncIdentifier: String? = nil, syncVersion: Int64? = nil, weekStart: String? = nil,
                timeZone: String? = nil, samples: [WeeklyReportSampleDraft] = []) {
        self.syncIdentifier = syncIdentifier; self.syncVersion = syncVersion; self.weekStart = weekStart
        self.timeZone = timeZone; self.samples = samples
    }
}
