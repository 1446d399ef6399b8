import CareSyncCore
import Foundation

/// The sync store's writes on PostgreSQL, inside one open write transaction that holds the store's head
/// row (`ChangeOrdering.headRow`): every lookup sees every earlier commit, so HealthKit's version rules
/// hold for concurrent writers of one key without a conflict error for anyone to retry.
///
/// The decisions are `SyncRules` and `WeeklyReportPlanner` (CareSyncCore); this type reads and writes rows,
/// numbers changes, and remembers which patients it changed. Not `Sendable`: valid only inside the
/// `PostgresDatabase.write` closure that made it.
final class PostgresWriter: SyncTransaction {
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
    private var longest: [SpanKey: Int64] = [:]
    /// What this transaction added to and took from each (patient, type)'s checksum, for `checksums`.
    private var checksumDeltas: [SpanKey: TypeChecksum] = [:]
    private var random = SystemRandomNumberGenerator()

    private struct SpanKey: Hashable {
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

    /// Raises `sample_spans`, adds the checksum deltas and writes the head back; call once, after the body,
    /// before commit. Sums wrap at 2^64 (in Swift: PostgreSQL's bigint arithmetic would overflow instead).
    func finish() throws {
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
        if let head, head != startHead { try ordering.finish(db, head: head) }
    }

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

    /// HealthKit's upsert for a batch, in order; throws `SyncError.conflict` (the caller's transaction rolls back).
    func upsert(_ samples: [SampleInput], patient: String, source: String, now: Date) throws -> [UpsertItemResult] {
        var results: [UpsertItemResult] = []
        results.reserveCapacity(samples.count)
        for (index, input) in samples.enumerated() {
            let byUUID = try input.uuid.map { try existing(uuid: $0) } ?? .unknown
            let byKey = try input.syncIdentifier.map { try liveSample(patient: patient, source: source, syncIdentifier: $0) } ?? nil
            switch SyncRules.upsertDecision(incoming: input, patient: patient, source: source, byUUID: byUUID, byKey: byKey) {
            case .insert:
                let uuid = try insert(input, patient: patient, source: source)
                results.append(UpsertItemResult(index: index, uuid: uuid, outcome: .inserted))
            case .replace(let old):
                try tombstone(old, patient: patient, now: now)
                let uuid = try insert(input, patient: patient, source: source)
                results.append(UpsertItemResult(index: index, uuid: uuid, outcome: .replaced))
            case .ignore(let reason, let existing):
                results.append(UpsertItemResult(index: index, uuid: existing, outcome: .ignored(reason)))
            case .conflict(let message):
                throw SyncError.conflict("samples[\(index)]: \(message)")
            }
        }
        return results
    }

    /// Deletes the caller's own samples by uuid, then by sync identifier; each deletion leaves a tombstone.
    func delete(uuids: [UUID], syncIdentifiers: [String], patient: String, source: String, now: Date) throws -> [DeleteItemResult] {
        var results: [DeleteItemResult] = []
        for uuid in uuids {
            guard case .live(let sample, let owner) = try existing(uuid: uuid), owner == patient else {
                results.append(DeleteItemResult(uuid: uuid, syncIdentifier: nil, outcome: .notFound)); continue
            }
            guard sample.source == source else {
                results.append(DeleteItemResult(uuid: uuid, syncIdentifier: nil, outcome: .notOwned)); continue
            }
            try tombstone(sample, patient: patient, now: now)
            results.append(DeleteItemResult(uuid: uuid, syncIdentifier: nil, outcome: .deleted, type: sample.type))
        }
        for identifier in syncIdentifiers {
            guard let sample = try liveSample(patient: patient, source: source, syncIdentifier: identifier) else {
                results.append(DeleteItemResult(uuid: nil, syncIdentifier: identifier, outcome: .notFound)); continue
            }
            try tombstone(sample, patient: patient, now: now)
            results.append(DeleteItemResult(uuid: sample.uuid, syncIdentifier: identifier, outcome: .deleted, type: sample.type))
        }
        return results
    }

    // MARK: Rows

    /// The live sample of (patient, source, syncIdentifier), if any.
    func liveSample(patient: String, source: String, syncIdentifier: String) throws -> Sample? {
        try db.query("""
            SELECT \(PostgresSampleRow.sampleColumns) FROM samples
            WHERE patient = $1 AND source = $2 AND sync_id = $3 AND sync_id IS NOT NULL
            """, [.text(patient), .text(source), .text(syncIdentifier)]).first { try PostgresSampleRow.decodeSample($0) }
    }

    /// What the store holds under a uuid: a live sample (with its patient), a tombstone, or nothing.
    func existing(uuid: UUID) throws -> ExistingUUID {
        let rows = try db.query("""
            SELECT 0, patient, \(PostgresSampleRow.sampleColumns) FROM samples WHERE uuid = $1
            UNION ALL SELECT 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM tombstones WHERE uuid = $1
            """, [.uuid(uuid)])
        guard rows.count > 0 else { return .unknown }
        let row = rows[0]
        guard try row.int64(0) == 0 else { return .deleted }
        return .live(try PostgresSampleRow.decodeSample(row, offset: 2), patient: try row.string(1))
    }

    /// Takes the next sequence for a change of `patient`.
    private func nextSequence(patient: String) throws -> Int64 {
        changedPatients.insert(patient)
        guard let current = head else { return try ordering.next(db) }
        head = current + 1
        return current + 1
    }

    /// Stores `input` as a new live sample (the client's uuid, else a new one); returns its uuid.
    @discardableResult
    func insert(_ input: SampleInput, patient: String, source: String) throws -> UUID {
        let uuid = input.uuid ?? TimeOrderedUUID.make(date: Date(), random: (random.next(), random.next()))
        let seq = try nextSequence(patient: patient)
        let start = SyncRules.milliseconds(input.start), end = SyncRules.milliseconds(input.end)
        try db.query("""
            INSERT INTO samples (seq, patient, uuid, type, value, start_ms, end_ms, sync_id, sync_version, source, metadata,
                                 user_entered, second_value)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
            """, [.int64(seq), .text(patient), .uuid(uuid), .text(input.type.rawValue), .double(input.value), .int64(start),
                  .int64(end), .text(input.syncIdentifier), .int64(input.syncVersion), .text(source),
                  .text(try MetadataCoding.encode(input.metadata)), .bool(input.metadata["wasUserEntered"] == .bool(true)),
                  .double(input.secondValue)])
        let key = SpanKey(patient: patient, type: input.type.rawValue)
        longest[key] = max(longest[key] ?? 0, end - start)
        checksumDeltas[key, default: TypeChecksum()].add(SampleDigest.of(uuid: uuid, syncVersion: input.syncVersion))
        return uuid
    }

    /// Removes a live sample and leaves its tombstone, under the next sequence (one statement).
    func tombstone(_ sample: Sample, patient: String, now: Date) throws {
        let seq = try nextSequence(patient: patient)
        let moved = try db.query("""
            WITH gone AS (DELETE FROM samples WHERE uuid = $1 RETURNING seq, patient, uuid, type, start_ms, end_ms, sync_id,
                                                                          sync_version, source)
            INSERT INTO tombstones (seq, patient, uuid, type, start_ms, end_ms, sync_id, sync_version, source, deleted_at_ms,
                                    inserted_seq)
            SELECT $2, patient, uuid, type, start_ms, end_ms, sync_id, sync_version, source, $3, seq FROM gone
            """, [.uuid(sample.uuid), .int64(seq), .int64(SyncRules.milliseconds(now))])
        guard moved.affected == 1 else { throw PostgresStoreCorruption("tombstoning a sample that is not live") }
        checksumDeltas[SpanKey(patient: patient, type: sample.type.rawValue), default: TypeChecksum()]
            .remove(SampleDigest.of(uuid: sample.uuid, syncVersion: sample.syncVersion))
    }
}
