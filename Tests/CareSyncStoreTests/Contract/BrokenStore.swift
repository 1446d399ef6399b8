import CareSyncCore
import CareSyncReferenceModel
import Foundation

/// A model with one deliberate bug, as a negative control for the model-based run.
struct BrokenStore: SyncStore {
    enum Fault: Sendable, CaseIterable { case dropsTombstones, headAnchorWhileMore, ignoresVersions, ignoresSourceFilter }
    let base: InMemorySyncStore
    let fault: Fault
    var storeID: String { base.storeID }

    func changes(_ query: ChangeQuery) throws -> ChangeSet {
        var query = query
        if fault == .ignoresSourceFilter { query.source = nil }
        var page = try base.changes(query)
        switch fault {
        case .dropsTombstones: page.deletedObjects = []
        case .headAnchorWhileMore: if page.hasMore { page.anchor = try base.currentAnchor(); page.hasMore = false }
        case .ignoresVersions, .ignoresSourceFilter: break
        }
        return page
    }

    func upsert(_ samples: [SampleInput], patient: String, source: String, now: Date) throws -> UpsertBatchResult {
        guard fault == .ignoresVersions else { return try base.upsert(samples, patient: patient, source: source, now: now) }
        // Forgets that a newer version replaces: every versioned sample becomes a fresh identifier-less insert.
        return try base.upsert(samples.map { var s = $0; s.syncIdentifier = nil; s.syncVersion = nil; return s },
                               patient: patient, source: source, now: now)
    }

    func delete(uuids: [UUID], syncIdentifiers: [String], patient: String, source: String, now: Date) throws -> DeleteBatchResult {
        try base.delete(uuids: uuids, syncIdentifiers: syncIdentifiers, patient: patient, source: source, now: now)
    }
    func currentAnchor() throws -> Anchor { try base.currentAnchor() }
    func upsertReport(_ report: WeeklyReportInput, patient: String, source: String, now: Date) throws -> WeeklyReportUpsertResult {
        try base.upsertReport(report, patient: patient, source: source, now: now)
    }
    func report(patient: String, syncIdentifier: String) throws -> WeeklyReport? { try base.report(patient: patient, syncIdentifier: syncIdentifier) }
    func reports(patient: String, from: CalendarDay, to: CalendarDay) throws -> [WeeklyReport] { try base.reports(patient: patient, from: from, to: to) }
    func deleteReport(patient: String, syncIdentifier: String, source: String, now: Date) throws -> Anchor? {
        try base.deleteReport(patient: patient, syncIdentifier: syncIdentifier, source: source, now: now)
    }
    func purgeTombstones(before horizon: Date) throws -> Int { try base.purgeTombstones(before: horizon) }
}
