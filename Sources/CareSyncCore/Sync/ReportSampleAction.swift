import Foundation

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
