import CareSyncCore
import CareSyncReferenceModel
import Foundation
import Testing

/// Thousands of seeded random operations on every store, checked against the reference model after each step.
///
/// `CARESYNC_MODEL_OPS` sets the number of operations (default 1,500), `CARESYNC_MODEL_SEED` replays a seed.
@Suite struct ModelBasedContractTests {
    static var steps: Int { ProcessInfo.processInfo.environment["CARESYNC_MODEL_OPS"].flatMap(Int.init) ?? 1500 }
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["CARESYNC_MODEL_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
    }

    @Test(arguments: ContractStores.all)
    func randomOperationsMatchTheModel(factory: ContractStore) throws {
        let seed = Self.seed
        var run = ModelBasedRun(store: try factory.make(), seed: seed)
        do {
            try run.run(steps: Self.steps)
        } catch {
            print("model-based run of \(factory.name) failed: rerun with CARESYNC_MODEL_SEED=\(seed)")
            Issue.record("\(factory.name), seed \(seed) (CARESYNC_MODEL_SEED=\(seed)): \(error)")
        }
    }

    /// The run must be able to fail: stores with a classic feed bug are caught.
    @Test(arguments: [BrokenStore.Fault.dropsTombstones, .headAnchorWhileMore, .ignoresVersions])
    func brokenStoresAreCaught(fault: BrokenStore.Fault) {
        let seed = Self.seed
        var run = ModelBasedRun(store: BrokenStore(base: InMemorySyncStore(), fault: fault), seed: seed)
        do {
            try run.run(steps: 600)
            Issue.record("fault \(fault) went unnoticed with seed \(seed)")
        } catch {
            #expect(error is Divergence)
            if ProcessInfo.processInfo.environment["CARESYNC_MODEL_VERBOSE"] != nil { print("caught \(fault): \(error)") }
        }
    }
}

/// A model with one deliberate bug, as a negative control for the model-based run.
struct BrokenStore: SyncStore {
    enum Fault: Sendable, CaseIterable { case dropsTombstones, headAnchorWhileMore, ignoresVersions }
    let base: InMemorySyncStore
    let fault: Fault
    var storeID: String { base.storeID }

    func changes(_ query: ChangeQuery) throws -> ChangeSet {
        var page = try base.changes(query)
        switch fault {
        case .dropsTombstones: page.deletedObjects = []
        case .headAnchorWhileMore: if page.hasMore { page.anchor = try base.currentAnchor(); page.hasMore = false }
        case .ignoresVersions: break
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
