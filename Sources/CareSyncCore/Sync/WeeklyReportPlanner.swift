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
