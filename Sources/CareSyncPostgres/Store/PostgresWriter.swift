import CareSyncCore
import CareSyncStoreCore
import Foundation

/// The sync store's writes on PostgreSQL, inside one open write transaction that holds the store's head
/// row (`ChangeOrdering.headRow`): every lookup sees every earlier commit, so HealthKit's version rules
/// hold for concurrent writers of one key without a conflict error for anyone to retry.
///
/// The decisions are `SyncRules` and `WeeklyReportPlanner`, applied by `SampleRowWriter` (CareSyncCore); this
/// type reads and writes rows (a batch's lookups read ahead, its writes sent ahead: `PostgresWriter+Rows`),
/// numbers changes from the head its transaction's `PostgresWriteGroup` holds, and gathers what the group writes
/// once before its commit (checksums, spans, day figures, head, audit records, outbox). Not `Sendable`: valid only inside the
/// `PostgresDatabase.write` closure that made it.
final class PostgresWriter: SyncTransaction, SampleRowWriter {
    let db: PostgresConnection
    let storeID: String
    private let ordering: ChangeOrdering
    /// The transaction's group: the head row it holds, and what its kept writes owe.
    private let group: PostgresWriteGroup
    /// What this write changed, for its group: the head it numbers from (nil under `.plainSequence`) and reached, the
    /// patients, checksum deltas, longest spans, day figures, latest `now` and audit records.
    var part: PostgresWriteGroup.Part
    var random = SystemRandomNumberGenerator()
    /// Rows read ahead for the batch under way (`readAhead`) and not written since.
    var known = PostgresKnownRows()
    /// Inserts and tombstones numbered but not sent yet (`flush`).
    var pending = PostgresPendingRows()

    struct SpanKey: Hashable {
        let patient: String
        let type: String
    }

    /// Starts the store's part of a write: joins its transaction's group, which takes the head row for the first.
    init(db: PostgresConnection, storeID: String, ordering: ChangeOrdering, listener: PostgresChangeListener,
         erased: PostgresErasedPatients) throws {
        precondition(db.isInTransaction, "PostgresWriter needs an open write transaction")
        self.db = db; self.storeID = storeID; self.ordering = ordering
        group = try PostgresWriteGroup.current(db, storeID: storeID, ordering: ordering, listener: listener, erased: erased)
        part = PostgresWriteGroup.Part(head: group.kept.head)
    }

    /// Patients whose feed this write changed.
    var changedPatients: Set<String> { part.changedPatients }

    /// Sends what is pending and stages this write's part with its group, which writes it before the commit if the
    /// write is kept; call once, after the body.
    func stage() throws {
        try flush()
        group.stage(part)
    }

    /// Notes `now` as a time of this write.
    func note(_ now: Date) { part.latestNow = max(part.latestNow ?? now, now) }

    /// The anchor at the head of the change log, this transaction's changes included.
    func headAnchor() throws -> Anchor {
        let sequence = try part.head ?? ordering.head(db).head
        return Anchor(storeID: storeID, sequence: sequence, horizon: group.horizon)
    }

    /// Keeps the request's audit record for the group, which inserts it before its commit if this write is kept.
    func appendAudit(_ record: AuditRecord) throws { part.audits.append(record) }

    // MARK: Samples

    /// HealthKit's upsert for a batch, in order, its lookups read ahead in two statements and its rows written in two.
    func upsert(_ samples: [SampleInput], patient: String, source: String, now: Date) throws -> [UpsertItemResult] {
        note(now)
        try readAhead(uuids: samples.compactMap(\.uuid), patient: patient, source: source,
                      syncIdentifiers: samples.compactMap(\.syncIdentifier))
        let results = try applyUpsert(samples, patient: patient, source: source, now: now)
        try endBatch()
        return results
    }

    /// Deletes the caller's own samples by uuid, then by sync identifier, looked up ahead; each leaves a tombstone.
    func delete(uuids: [UUID], syncIdentifiers: [String], patient: String, source: String, now: Date) throws -> [DeleteItemResult] {
        note(now)
        try readAhead(uuids: uuids, patient: patient, source: source, syncIdentifiers: syncIdentifiers)
        let results = try applyDelete(uuids: uuids, syncIdentifiers: syncIdentifiers, patient: patient, source: source, now: now)
        try endBatch()
        return results
    }

    /// Refuses an id erased before this write's group took the head row; an erasure after that waits for the group's
    /// commit and removes its rows (`PostgresErasedPatients`).
    func refuseErased(_ patient: String) throws {
        if group.erasedIDs.contains(patient) { throw ErasedPatientWrite(patient: patient) }
    }

    /// Takes the next sequence for a change of `patient`.
    func nextSequence(patient: String) throws -> Int64 {
        part.changedPatients.insert(patient)
        guard let current = part.head else { return try ordering.next(db) }
        part.head = current + 1
        return current + 1
    }
}
