/// A sample as decoded from JSON, before validation: every field optional, strings unparsed.
public struct SampleDraft: Hashable, Sendable {
    /// A client uuid, when the client assigns its own.
    public var uuid: String?
    /// The type identifier, such as `stepCount`.
    public var type: String?
    /// The value in `unit`.
    public var value: Double?
    /// The unit symbol; none for category types.
    public var unit: String?
    /// RFC 3339 start, with offset.
    public var start: String?
    /// RFC 3339 end, with offset.
    public var end: String?
    /// HealthKit's `HKMetadataKeySyncIdentifier`.
    public var syncIdentifier: String?
    /// HealthKit's `HKMetadataKeySyncVersion`; required exactly when `syncIdentifier` is given.
    public var syncVersion: Int64?
    /// Free metadata: strings, numbers, booleans.
    public var metadata: [String: MetadataValue]?

    /// Creates a draft.
    public init(uuid: String? = nil, type: String? = nil, value: Double? = nil, unit: String? = nil,
                start: String? = nil, end: String? = nil, syncIdentifier: String? = nil, syncVersion: Int64? = nil,
                metadata: [String: MetadataValue]? = nil) {
        self.uuid = uuid; self.type = type; self.value = value; self.unit = unit; self.start = start; self.end = end
        self.syncIdentifier = syncIdentifier; self.syncVersion = syncVersion; self.metadata = metadata
    }
}

/// One test of a weekly report as decoded from JSON: its key and its sample (without sync fields).
public struct WeeklyReportSampleDraft: Hashable, Sendable {
    /// The key within the report, such as the day `2020-06-18`.
    public var key: String?
    /// The sample; `uuid`, `syncIdentifier` and `syncVersion` are the report's to set.
    public var sample: SampleDraft
    /// Creates a draft.
    public init(key: String?, sample: SampleDraft) { self.key = key; self.sample = sample }
}

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
