import CareSyncCore
import CareSyncStoreCore
import Foundation

/// The sync store's writes on PostgreSQL, inside one open write transaction that holds the store's head
/// row (`ChangeOrdering.headRow`): every lookup sees every earlier commit, so HealthKit's version rules
/// hold for concurrent writers of one key without a conflict error for anyone to retry.
///
/// The decisions are `SyncRules` and `WeeklyReportPlanner`, applied by `SampleRowWriter` (CareSyncCore); this
/// type reads and writes rows (a batch's lookups read ahead, its writes sent together: `PostgresWriter+Rows`),
/// numbers changes, and remembers which patients it changed. Not `Sendable`: valid only inside the
/// `PostgresDatabase.write` closure that made it.
final class PostgresWriter: SyncTransaction, SampleRowWriter {
    let db: PostgresConnection
    let storeID: String
    private let ordering: ChangeOrdering
    /// The head this transaction numbers from (nil under `.plainSequence`) and reached.
    private var head: Int64?
    private let startHead: Int64?
    private let horizon: Int64
    /// Patients whose feed this transaction changed.
    private(set) var changedPatients: Set<String> = []
    /// The longest duration inserted per (patient, type), for `sample_spans`.
    var longest: [SpanKey: Int64] = [:]
    /// What this transaction added to and took from each (patient, type)'s checksum, for `checksums`.
    var checksumDeltas: [SpanKey: TypeChecksum] = [:]
    /// The samples this transaction added and removed, for `sample_days`.
    var days = SampleDayChanges()
    var random = SystemRandomNumberGenerator()
    /// Rows read ahead for the batch under way (`readAhead`) and not written since.
    var known = PostgresKnownRows()
    /// Inserts and tombstones numbered but not sent yet (`flush`).
    var pending = PostgresPendingRows()
    /// The latest `now` the writes were given: the time the commit records (`WriteTimes`).
    private(set) var latestNow: Date?

    struct SpanKey: Hashable {
        let patient: String
        let type: String
    }

    /// Starts the store's part of a write transaction: takes the head row.
    init(db: PostgresConnection, storeID: String, ordering: ChangeOrdering) throws {
        precondition(db.isInTransaction, "PostgresWriter needs an open write transaction")
        self.db = db; self.storeID = storeID; self.ordering = ordering
        (head, horizon) = try ordering.begin(db)
        startHead = head
    }

    /// Raises `sample_spans`, adds the checksum deltas, brings `sample_days` up to date and writes the head back; call once, after the body,
    /// before commit. Sums wrap at 2^64 (in Swift: PostgreSQL's bigint arithmetic would overflow instead).
    func finish() throws {
        try flush()
        for (key, delta) in checksumDeltas {
            var figures = try db.query("SELECT count, sum FROM checksums WHERE patient = $1 AND type = $2",
                                       [.text(key.patient), .text(key.type)])
                .first { TypeChecksum(count: try $0.int64(0), sum: UInt64(bitPattern: try $0.int64(1))) } ?? TypeChecksum()
            figures.add(delta)
            try db.query("""
                INSERT INTO checksums (patient, type, count, sum) VALUES ($1, $2, $3, $4)
                ON CONFLICT (patient, type) DO UPDATE SET count = excluded.count, sum = excluded.sum
                """, [.text(key.patient), .text(key.type), .int64(figures.count), .int64(Int64(bitPattern: figures.sum))])
        }
        checksumDeltas = [:]
        for (key, duration) in longest {
            try db.query("""
                INSERT INTO sample_spans (patient, type, max_duration_ms) VALUES ($1, $2, $3)
                ON CONFLICT (patient, type) DO UPDATE SET max_duration_ms = excluded.max_duration_ms
                WHERE excluded.max_duration_ms > sample_spans.max_duration_ms
                """, [.text(key.patient), .text(key.type), .int64(duration)])
        }
        longest = [:]
        try SampleDayRows.record(db, days)
        days = SampleDayChanges()
        if let head, head != startHead {
            try ordering.finish(db, head: head)
            try CommitTimes.record(db, head: head, latestNow: latestNow)
        }
    }

    /// Notes `now` as a time of this write.
    func note(_ now: Date) { latestNow = max(latestNow ?? now, now) }

    /// The anchor at the head of the change log, this transaction's changes included.
    func headAnchor() throws -> Anchor {
        let sequence = try head ?? ordering.head(db).head
        return Anchor(storeID: storeID, sequence: sequence, horizon: horizon)
    }

    /// Inserts the request's audit record in this transaction.
    func appendAudit(_ record: AuditRecord) throws {
        try PostgresAccessStore.insertAudit([record], into: db)
    }

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

    /// Takes the next sequence for a change of `patient`.
    func nextSequence(patient: String) throws -> Int64 {
        changedPatients.insert(patient)
        guard let current = head else { return try ordering.next(db) }
        head = current + 1
        return current + 1
    }
}
