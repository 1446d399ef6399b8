import Foundation

/// Plans a weekly report post: which stored samples to keep, replace, insert or tombstone.
///
/// Given the stored report (its version and its live samples by key) and a new version:
///
///     stored v1 {mon: 400 m, wed: 420 m, fri: 430 m}
///     new    v2 {mon: 400 m, wed: 450 m, sat: 500 m}
///     ->  keep mon (same uuid, still v1); replace wed (tombstone, new sample v2);
///         insert sat (v2); delete fri (tombstone)
///
/// An equal or lower version plans nothing and is `ignored`. Actions come in a fixed order so every
/// store assigns sequences alike: the new report's samples in input order, then deletions by key.
public enum WeeklyReportPlanner {
    /// The plan for posting `input` over `stored` (nil when no report with that key exists).
    public static func plan(stored: StoredReportState?, input: WeeklyReportInput) -> WeeklyReportPlan {
        if let stored, input.syncVersion <= stored.syncVersion {
            return WeeklyReportPlan(outcome: .ignored, actions: [])
        }
        var actions: [ReportSampleAction] = []
        var seen = Set<String>()
        for item in input.samples {
            seen.insert(item.key)
            let fresh = sampleInput(for: item, report: input)
            if let old = stored?.samples[item.key] {
                if SyncRules.contentEqual(old, fresh) {
                    actions.append(.keep(key: item.key, sample: old))
                } else {
                    actions.append(.replace(key: item.key, old: old, new: fresh))
                }
            } else {
                actions.append(.insert(key: item.key, new: fresh))
            }
        }
        if let stored {
            for key in stored.samples.keys.sorted() where !seen.contains(key) {
                actions.append(.delete(key: key, old: stored.samples[key]!))
            }
        }
        return WeeklyReportPlan(outcome: stored == nil ? .inserted : .replaced, actions: actions)
    }

    /// The sample a report item becomes: derived sync identifier, the report's version, a server uuid.
    public static func sampleInput(for item: WeeklyReportSampleInput, report: WeeklyReportInput) -> SampleInput {
        var sample = item.sample
        sample.uuid = nil
        sample.syncIdentifier = SyncRules.derivedSyncIdentifier(report: report.syncIdentifier, key: item.key)
        sample.syncVersion = report.syncVersion
        return sample
    }
}

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

/// One step of a report plan.
public enum ReportSampleAction: Hashable, Sendable {
    /// Content unchanged: leave the stored sample alone (same uuid, same version).
    case keep(key: String, sample: Sample)
    /// Content changed: tombstone `old`, store `new` (new uuid, the report's version).
    case replace(key: String, old: Sample, new: SampleInput)
    /// A new key: store `new`.
    case insert(key: String, new: SampleInput)
    /// A key missing from the new version: tombstone `old`.
    case delete(key: String, old: Sample)

    /// The report key this action is about.
    public var key: String {
        switch self {
        case let .keep(key, _), let .replace(key, _, _), let .insert(key, _), let .delete(key, _): key
        }
    }
}
