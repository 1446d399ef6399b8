import Foundation

/// When changes were committed (docs/fhir.md, "Write times"): every write transaction that advances the change log
/// records one commit time, keyed by the highest sequence it committed. A change's write time is that of the first
/// commit at or after its sequence. Commit times never decrease along the log, so an instant splits the log in two:
/// the changes committed before it (up to `position(committedBefore:)`) and those committed at or after it.
///
///     commits: (position 3, 10:00:00.000) (position 5, 10:00:02.000) (position 9, 10:00:05.000)
///     write time of sequence 4         -> 10:00:02.000
///     position committed before 10:00:03 -> 5 (sequences 6...9 were committed at or after it)
public enum WriteTimes {
    /// The time a commit records, in milliseconds: the latest `now` its writes were given, never before the previous
    /// commit's time (`previous`), so times follow the log even when clocks of instances or requests disagree.
    public static func stamp(latestNow: Date?, previous: Int64?) -> Int64 {
        let now = SyncRules.milliseconds(latestNow ?? Date())
        return max(now, previous ?? .min)
    }
}
