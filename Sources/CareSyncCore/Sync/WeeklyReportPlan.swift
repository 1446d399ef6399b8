import Foundation

/// What a store holds for a report before a post: its version and its live samples by key.
public struct StoredReportState: Hashable, Sendable {
    /// The stored report's version.
    public var syncVersion: Int64
    /// The report's live samples, by key.
    public var samples: [String: Sample]
    /// Creates the state.
    public init(syncVersion: Int64, samples: [String: Sample]) { self.syncVersion = syncVersion; self.samples = samples }
}

/// The outcome of a report post and the sample actions that realise it, in order.
public struct WeeklyReportPlan: Hashable, Sendable {
    /// `inserted` (new report), `replaced` (higher version) or `ignored`.
    public var outcome: WeeklyReportUpsertResult.Outcome
    /// What to do with each sample, in the order to apply.
    public var actions: [ReportSampleAction]
    /// Creates a plan.
    public init(outcome: WeeklyReportUpsertResult.Outcome, actions: [ReportSampleAction]) {
        self.outcome = outcome; self.actions = actions
    }
}
