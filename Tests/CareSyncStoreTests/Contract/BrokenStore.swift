import CareSyncCore
import CareSyncReferenceModel
import Foundation

/// A model with one deliberate bug, as a negative control for the model-based run.
struct BrokenStore: SyncStore {
    enum Fault: Sendable, CaseIterable { case dropsTombstones, headAnchorWhileMore, ignoresVersions, ignoresSourceFilter }
    let base: InMemorySyncStore
    let fault: Fault
    var storeID: String { base.storeID }
    var anchorKey: [UInt8] { base.anchorKey }
    var notifier: ChangeNotifier { base.notifier }

    /// Writes go to the model, except the deliberate fault, which rewrites the samples first.
    func write<T>(_ body: (any SyncTransaction) throws -> T) throws -> T {
        try base.write { transaction in try body(FaultyTransaction(base: transaction, fault: fault)) }
    }

    func write<Value: Sendable>(
        idempotency: IdempotencyClaim?, _ body: @escaping @Sendable (any SyncTransaction) throws -> WriteAnswer<Value>
    ) async throws -> IdempotentWriteResult<Value> {
        let fault = self.fault
        return try await base.write(idempotency: idempotency) { transaction in try body(FaultyTransaction(base: transaction, fault: fault)) }
    }

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

    func currentAnchor() throws -> Anchor { try base.currentAnchor() }
    func position(committedBefore instant: Date) throws -> Int64 { try base.position(committedBefore: instant) }
    func writeTime(of position: Int64) throws -> Date? { try base.writeTime(of: position) }
    func checkWritable() throws { try base.checkWritable() }
    func checksums(patient: String, at anchor: Anchor?) throws -> ReplicaChecksums { try base.checksums(patient: patient, at: anchor) }
    func statistics(patient: String, query: StatisticsQuery) throws -> StatisticsCollection {
        try base.statistics(patient: patient, query: query)
    }
    func outbox(after id: Int64, limit: Int) throws -> [OutboxEntry] { try base.outbox(after: id, limit: limit) }
    func report(patient: String, syncIdentifier: String, source: String) throws -> WeeklyReport? {
        try base.report(patient: patient, syncIdentifier: syncIdentifier, source: source)
    }
    func reportSources(patient: String, syncIdentifier: String) throws -> [String] {
        try base.reportSources(patient: patient, syncIdentifier: syncIdentifier)
    }
    func reports(_ query: ReportListQuery) throws -> ReportPage { try base.reports(query) }
    func purgeTombstones(before horizon: Date) throws -> Int { try base.purgeTombstones(before: horizon) }
    func purgeIdempotencyRecords(now: Date) throws -> Int { try base.purgeIdempotencyRecords(now: now) }
    func acquireLease(_ job: LeasedJob) throws -> Bool { try base.acquireLease(job) }
}

/// The model's transaction with the store's fault applied to what is written.
struct FaultyTransaction: SyncTransaction {
    let base: any SyncTransaction
    let fault: BrokenStore.Fault

    func upsert(_ samples: [SampleInput], patient: String, source: String, now: Date) throws -> [UpsertItemResult] {
        guard fault == .ignoresVersions else { return try base.upsert(samples, patient: patient, source: source, now: now) }
        // Forgets that a newer version replaces: every versioned sample becomes a fresh identifier-less insert.
        return try base.upsert(samples.map { var s = $0; s.syncIdentifier = nil; s.syncVersion = nil; return s },
                               patient: patient, source: source, now: now)
    }
    func delete(uuids: [UUID], syncIdentifiers: [String], patient: String, source: String, now: Date) throws -> [DeleteItemResult] {
        try base.delete(uuids: uuids, syncIdentifiers: syncIdentifiers, patient: patient, source: source, now: now)
    }
    func upsertReport(_ report: WeeklyReportInput, patient: String, source: String,
                      now: Date) throws -> (outcome: WeeklyReportUpsertResult.Outcome, report: WeeklyReport) {
        try base.upsertReport(report, patient: patient, source: source, now: now)
    }
    func deleteReport(patient: String, syncIdentifier: String, source: String, now: Date) throws -> Bool {
        try base.deleteReport(patient: patient, syncIdentifier: syncIdentifier, source: source, now: now)
    }
    func reportCount(patient: String, besides syncIdentifier: String, of source: String) throws -> Int {
        try base.reportCount(patient: patient, besides: syncIdentifier, of: source)
    }
    func headAnchor() throws -> Anchor { try base.headAnchor() }
    func appendAudit(_ record: AuditRecord) throws { try base.appendAudit(record) }
}
