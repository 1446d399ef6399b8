/// One test of a weekly report as decoded from JSON: its key and its sample (without sync fields).
public struct WeeklyReportSampleDraft: Hashable, Sendable {
    /// The key within the report, such as the day `2020-06-18`.
    public var key: String?
    /// The sample; `uuid`, `syncIdentifier` and `syncVersion` are the report's to set.
    public var sample: SampleDraft
    /// Creates a draft.
    public init(key: String?, sample: SampleDraft) { self.key = key; self.sample = sample }
}
