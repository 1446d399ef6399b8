import Foundation

/// The remote store of the WWDC20 HealthKit sync design; the SQLite store and the test model both conform.
///
/// Every write is one transaction and follows HealthKit's rules, keyed by (patient, source, syncIdentifier):
/// a higher `syncVersion` replaces the stored sample (which leaves a tombstone; the new one gets a new uuid),
/// an equal or lower one is ignored. Each committed change takes the next sequence of the store's
/// change log, so anchors order every change. Methods are synchronous and thread-safe; callers on
/// an async context hop to a blocking queue first.
public protocol SyncStore: Sendable {
    /// The id anchors from this store carry.
    var storeID: String { get }

    /// Applies a batch of samples from `source` for `patient` in one transaction, in order.
    func upsert(_ samples: [SampleInput], patient: String, source: String, now: Date) throws -> UpsertBatchResult

    /// Deletes samples of `source` by uuid and by sync identifier; each deletion leaves a tombstone.
    func delete(uuids: [UUID], syncIdentifiers: [String], patient: String, source: String, now: Date) throws -> DeleteBatchResult

    /// One page of the anchored change feed. Throws `SyncError.invalidAnchor` / `.anchorExpired`.
    func changes(_ query: ChangeQuery) throws -> ChangeSet

    /// The anchor at the head of the change log now (what a reader with nothing new would be handed).
    func currentAnchor() throws -> Anchor

    /// Posts a weekly report: new or higher version stored by the derived-identifier rules, else ignored.
    func upsertReport(_ report: WeeklyReportInput, patient: String, source: String, now: Date) throws -> WeeklyReportUpsertResult

    /// The current version of a report, or nil.
    func report(patient: String, syncIdentifier: String) throws -> WeeklyReport?

    /// Reports whose week starts within `[from, to]`, by week start.
    func reports(patient: String, from: CalendarDay, to: CalendarDay) throws -> [WeeklyReport]

    /// Deletes a report of `source` and tombstones its samples; nil when there was none.
    func deleteReport(patient: String, syncIdentifier: String, source: String, now: Date) throws -> Anchor?

    /// Purges tombstones deleted before `horizon` and records it; older anchors become `anchorExpired`.
    func purgeTombstones(before horizon: Date) throws -> Int
}
