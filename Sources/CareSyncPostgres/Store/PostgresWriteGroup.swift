import CareSyncCore
import CareSyncStoreCore
import Foundation

/// What the sync writes of one group transaction owe the store's bookkeeping at its commit: the head row, the
/// checksums, the longest spans, the day figures, the commit time, the requests' audit records, the webhook outbox (an
/// entry per write and patient, at that write's head) and the other instances' notifications, written once for the whole group (`beforeCommit`)
/// instead of once per write.
///
/// The first `PostgresWriter` of a transaction takes the head row and opens the group; each writer numbers from the
/// head the group holds and stages its part when its job's body returns. A part counts only once its job's savepoint
/// was released (`jobEnded(kept: true)`); a job rolled back to its savepoint leaves nothing behind, and the next job
/// numbers from where the kept ones ended. Lives on the writer connection (`PostgresConnection.transactionState`) until
/// the transaction ends, or until the job that opened it is rolled back before any job was kept: rolling back to a
/// savepoint releases the row locks taken after it, the head row's included, so the next writer opens a new group and
/// takes the row again (another instance may have committed meanwhile).
final class PostgresWriteGroup: PostgresTransactionState {
    /// One writer's changes, as `PostgresWriter` gathered them.
    struct Part {
        /// The head the write numbered up to (nil under `.plainSequence`).
        var head: Int64?
        /// What it added to and took from each (patient, type)'s checksum.
        var checksumDeltas: [PostgresWriter.SpanKey: TypeChecksum] = [:]
        /// The longest duration it inserted per (patient, type), for `sample_spans`.
        var longest: [PostgresWriter.SpanKey: Int64] = [:]
        /// The samples it added and removed, for `sample_days`.
        var days = SampleDayChanges()
        /// Patients whose feed it changed.
        var changedPatients: Set<String> = []
        /// The latest `now` it was given: the time the commit records (`WriteTimes`).
        var latestNow: Date?
        /// The requests' audit records, in order.
        var audits: [AuditRecord] = []
    }

    /// The outbox entries of the kept writes, in order: each changed patient at its write's head.
    private var outbox: [(patient: String, anchor: Anchor)] = []

    let storeID: String
    let ordering: ChangeOrdering
    /// The purge horizon read with the head row.
    let horizon: Int64
    /// The ids erased before the group took the head row: its writes refuse them.
    let erasedIDs: Set<String>
    /// The head read with the row lock (nil under `.plainSequence`).
    private let startHead: Int64?
    /// What the kept jobs changed, the head they reached included.
    private(set) var kept: Part
    /// The part of the job under way, staged when its body returned.
    private var staged: Part?
    /// Whether a job was kept: until then the head row's lock is the savepoint's of the job that opened the group.
    private var keptAJob = false
    /// Names this instance in the other instances' notifications.
    private let listener: PostgresChangeListener

    /// Takes the head row in `db`'s open transaction and opens the group.
    init(db: PostgresConnection, storeID: String, ordering: ChangeOrdering, listener: PostgresChangeListener,
         erased: PostgresErasedPatients) throws {
        self.storeID = storeID; self.ordering = ordering
        let (head, horizon, erasures) = try ordering.begin(db)
        self.horizon = horizon
        erasedIDs = try erased.ids(db, erasures: erasures)
        startHead = head
        kept = Part(head: head)
        self.listener = listener
    }

    /// The group of `db`'s open transaction, opened now if its first writer is this one.
    static func current(_ db: PostgresConnection, storeID: String, ordering: ChangeOrdering,
                        listener: PostgresChangeListener, erased: PostgresErasedPatients) throws -> PostgresWriteGroup {
        if let group = db.transactionState as? PostgresWriteGroup { return group }
        let group = try PostgresWriteGroup(db: db, storeID: storeID, ordering: ordering, listener: listener, erased: erased)
        db.transactionState = group
        return group
    }

    /// Stages the part of the job under way; it counts once the job is kept.
    func stage(_ part: Part) { staged = part }

    /// Adds the staged part to what the group keeps, or drops it with its job; false when the group ends with the job
    /// (it opened the group and its rollback released the head row).
    func jobEnded(kept isKept: Bool) -> Bool {
        defer { staged = nil }
        guard isKept else { return keptAJob }
        keptAJob = true
        guard let part = staged else { return true }
        let anchor = Anchor(storeID: storeID, sequence: part.head ?? 0, horizon: horizon)
        outbox += part.changedPatients.sorted().map { ($0, anchor) }
        kept.head = part.head
        kept.checksumDeltas.merge(part.checksumDeltas) { var sum = $0; sum.add($1); return sum }
        kept.longest.merge(part.longest, uniquingKeysWith: max)
        kept.days.merge(part.days)
        kept.changedPatients.formUnion(part.changedPatients)
        kept.audits += part.audits
        if let now = part.latestNow { kept.latestNow = max(kept.latestNow ?? now, now) }
        return true
    }

    /// Writes what the kept jobs owe, sent ahead of the `COMMIT` that follows: checksums (sums wrap at 2^64, as in
    /// Swift; bigint would overflow), spans, day figures, the head and its commit time, audit records, the outbox, the
    /// notifications.
    func beforeCommit(_ db: PostgresConnection) throws {
        for (key, delta) in kept.checksumDeltas {
            try db.send("""
                INSERT INTO checksums AS c (patient, type, count, sum) VALUES ($1, $2, $3, $4)
                ON CONFLICT (patient, type) DO UPDATE SET count = c.count + excluded.count,
                  sum = ((c.sum::numeric + excluded.sum::numeric + 27670116110564327424) % 18446744073709551616
                         - 9223372036854775808)::bigint
                """, [.text(key.patient), .text(key.type), .int64(delta.count), .int64(Int64(bitPattern: delta.sum))])
        }
        for (key, duration) in kept.longest {
            try db.send("""
                INSERT INTO sample_spans (patient, type, max_duration_ms) VALUES ($1, $2, $3)
                ON CONFLICT (patient, type) DO UPDATE SET max_duration_ms = excluded.max_duration_ms
                WHERE excluded.max_duration_ms > sample_spans.max_duration_ms
                """, [.text(key.patient), .text(key.type), .int64(duration)])
        }
        try SampleDayRows.record(db, kept.days)
        if let head = kept.head, head != startHead {
            try ordering.finish(db, head: head)
            try CommitTimes.record(db, head: head, latestNow: kept.latestNow)
        }
        try PostgresAccessStore.insertAudit(kept.audits, into: db)
        try PostgresOutbox.record(db, entries: outbox, now: Date())
        // Delivered to every instance's listener at commit (PostgresChangeListener).
        for patient in kept.changedPatients.sorted() {
            try db.send("SELECT pg_notify($1, $2)",
                        [.text(PostgresChangeListener.channel(storeID: storeID)), .text(listener.payload(patient: patient))])
        }
    }
}
