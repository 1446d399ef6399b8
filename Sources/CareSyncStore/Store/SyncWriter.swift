import CareSyncCore
import CareSyncStoreCore
import Foundation

/// The sync store's writes, run on the writer connection inside one open write transaction.
///
/// Every change takes the next sequence by inserting into `change_log` (AUTOINCREMENT) inside that
/// transaction, so sequences follow commit order. The decisions themselves are `SyncRules` and
/// `WeeklyReportPlanner`, applied by `SampleRowWriter` (CareSyncCore); this type only reads and writes rows.
/// Not `Sendable`: it wraps a connection that is only valid inside `Database.write`.
public struct SyncWriter: SyncTransaction, SampleRowWriter {
    /// The writer connection, inside a transaction.
    let db: Connection
    let storeID: String
    private let statements: Statements

    init(db: Connection, storeID: String) {
        precondition(db.isInTransaction, "SyncWriter needs an open write transaction")
        self.db = db; self.storeID = storeID; self.statements = Statements(db: db)
    }

    /// The hot statements, looked up in the connection's cache once per write rather than once per row.
    private final class Statements {
        let db: Connection
        init(db: Connection) { self.db = db }
        lazy var byKey = Result { try db.cachedStatement("""
            SELECT \(SampleRow.sampleColumns) FROM samples
            WHERE patient = ? AND source = ? AND sync_id = ? AND sync_id IS NOT NULL
            """) }
        lazy var log = Result { try db.cachedStatement("INSERT INTO change_log (patient, kind, uuid) VALUES (?, ?, ?)") }
        lazy var erased = Result { try db.cachedStatement("SELECT 1 FROM erased_patients WHERE id = ?") }
        lazy var insert = Result { try db.cachedStatement("""
            INSERT INTO samples (seq, patient, uuid, type, value, start_ms, end_ms, sync_id, sync_version, source, metadata,
                                 user_entered, second_value, components)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """) }
        /// The longest duration inserted per (patient, type) in this transaction, for `sample_spans`.
        var longest: [SpanKey: Int64] = [:]
        /// What this transaction added to and took from each (patient, type)'s checksum, for `checksums`.
        var checksumDeltas: [SpanKey: TypeChecksum] = [:]
        /// The latest `now` the writes were given: the time the commit records (`WriteTimes`).
        var latestNow: Date?
        /// The samples this transaction added and removed, for `sample_days`.
        var days = SampleDayChanges()
    }

    /// The latest `now` this writer's writes were given.
    var latestNow: Date? { statements.latestNow }

    /// Notes `now` as a time of this write.
    func note(_ now: Date) { statements.latestNow = max(statements.latestNow ?? now, now) }

    /// A (patient, type) pair of `sample_spans`.
    struct SpanKey: Hashable {
        let patient: String
        let type: String
    }

    /// The anchor at the head of the change log, including this transaction's changes.
    public func headAnchor() throws -> Anchor { try StoreQueries.headAnchor(db, storeID: storeID) }

    /// Inserts the request's audit record in this transaction (the access tables share the database).
    public func appendAudit(_ record: AuditRecord) throws {
        try SQLiteAccessStore.insertAudit([record], into: db)
    }

    // MARK: Samples

    /// HealthKit's upsert for a batch, in order; throws `SyncError.conflict` (the caller's transaction rolls back).
    public func upsert(_ samples: [SampleInput], patient: String, source: String, now: Date) throws -> [UpsertItemResult] {
        note(now)
        return try applyUpsert(samples, patient: patient, source: source, now: now)
    }

    /// Deletes the caller's own samples by uuid, then by sync identifier; each deletion leaves a tombstone.
    public func delete(uuids: [UUID], syncIdentifiers: [String], patient: String, source: String, now: Date) throws -> [DeleteItemResult] {
        note(now)
        return try applyDelete(uuids: uuids, syncIdentifiers: syncIdentifiers, patient: patient, source: source, now: now)
    }

    // MARK: Rows

    /// The live sample of (patient, source, syncIdentifier), if any.
    public func liveSample(patient: String, source: String, syncIdentifier: String) throws -> Sample? {
        let statement = try statements.byKey.get()
        try statement.bind(patient, at: 1)
        try statement.bind(source, at: 2)
        try statement.bind(syncIdentifier, at: 3)
        return try statement.first { try SampleRow.decodeSample($0) }
    }

    /// What the store holds under a uuid for `patient`: a live sample, a tombstone, or nothing.
    public func existing(uuid: UUID, patient: String) throws -> ExistingUUID {
        if let live = try db.fetchOne("SELECT \(SampleRow.sampleColumns) FROM samples WHERE patient = ? AND uuid = ?",
                                      [.text(patient), .blob(uuid.bytes)], { try SampleRow.decodeSample($0) }) {
            return .live(live, patient: patient)
        }
        let deleted = try db.scalarInt64("SELECT count(*) FROM tombstones WHERE patient = ? AND uuid = ?",
                                         [.text(patient), .blob(uuid.bytes)]) ?? 0
        return deleted > 0 ? .deleted : .unknown
    }

    /// Refuses an erased id. The erasure takes the one writer as this write does (another process's too, through the
    /// file's lock), so it committed wholly before this transaction or comes wholly after it and removes its rows.
    public func refuseErased(_ patient: String) throws {
        if try statements.erased.get().first([.text(patient)], { _ in true }) != nil { throw ErasedPatientWrite(patient: patient) }
    }

    /// Takes the next sequence for a change of `patient`.
    private func nextSequence(patient: String, kind: Int64, uuid: UUID) throws -> Int64 {
        let log = try statements.log.get()
        try log.bind(patient, at: 1)
        try log.bind(kind, at: 2)
        try log.bind(uuid, at: 3)
        try log.execute()
        return db.lastInsertRowID
    }

    /// Stores `input` as a new live sample (the client's uuid, else a new one); returns its uuid.
    @discardableResult
    public func insert(_ input: SampleInput, patient: String, source: String) throws -> UUID {
        let uuid = input.uuid ?? TimeOrderedUUID.make()
        let seq = try nextSequence(patient: patient, kind: 0, uuid: uuid)
        let insert = try statements.insert.get()
        let start = SyncRules.milliseconds(input.start), end = SyncRules.milliseconds(input.end)
        try insert.bind(seq, at: 1)
        try insert.bind(patient, at: 2)
        try insert.bind(uuid, at: 3)
        try insert.bind(input.type.rawValue, at: 4)
        try insert.bind(input.value, at: 5)
        try insert.bind(start, at: 6)
        try insert.bind(end, at: 7)
        try insert.bind(input.syncIdentifier, at: 8)
        try insert.bind(input.syncVersion, at: 9)
        try insert.bind(source, at: 10)
        try insert.bind(try MetadataCoding.encode(input.metadata), at: 11)
        try insert.bind(input.metadata["wasUserEntered"] == .bool(true) ? Int64(1) : Int64(0), at: 12)
        try insert.bind(input.secondValue, at: 13)
        try insert.bind(try ComponentCoding.encode(input.components), at: 14)
        try insert.execute()
        let key = SpanKey(patient: patient, type: input.type.rawValue)
        statements.longest[key] = max(statements.longest[key] ?? 0, end - start)
        statements.checksumDeltas[key, default: TypeChecksum()].add(SampleDigest.of(uuid: uuid, syncVersion: input.syncVersion))
        statements.days.add(patient: patient, source: source, type: input.type, start: start, end: end, value: input.value)
        return uuid
    }

    /// Raises `sample_spans` to the longest samples this transaction inserted: one statement per
    /// (patient, type), not per row, and a row is rewritten only when its bound rises (an unchanged row leaves its
    /// page clean, one page less per commit). `SQLiteSyncStore.write` calls it before commit. Never lowers a bound.
    func recordSpans() throws {
        guard !statements.longest.isEmpty else { return }
        let raise = try db.cachedStatement("""
            INSERT INTO sample_spans (patient, type, max_duration_ms) VALUES (?, ?, ?)
            ON CONFLICT (patient, type) DO UPDATE SET max_duration_ms = excluded.max_duration_ms
            WHERE excluded.max_duration_ms > sample_spans.max_duration_ms
            """)
        for (key, duration) in statements.longest {
            try raise.bind(key.patient, at: 1)
            try raise.bind(key.type, at: 2)
            try raise.bind(duration, at: 3)
            try raise.execute()
        }
        statements.longest = [:]
    }

    /// Adds this transaction's checksum deltas to `checksums`: one statement per (patient, type) it touched.
    /// `SQLiteSyncStore.write` calls it before commit. Sums wrap at 2^64 (stored with the same bits as Int64).
    func recordChecksums() throws {
        guard !statements.checksumDeltas.isEmpty else { return }
        for (key, delta) in statements.checksumDeltas {
            var figures = try ChecksumQueries.stored(db, patient: key.patient, type: key.type)
            figures.add(delta)
            try db.cachedStatement("""
                INSERT INTO checksums (patient, type, count, sum) VALUES (?, ?, ?, ?)
                ON CONFLICT (patient, type) DO UPDATE SET count = excluded.count, sum = excluded.sum
                """).execute([.text(key.patient), .text(key.type), .integer(figures.count), .integer(Int64(bitPattern: figures.sum))])
        }
        statements.checksumDeltas = [:]
    }

    /// Brings `sample_days` up to date with the samples this transaction added and removed (`SampleDayRows.record`).
    /// `SQLiteSyncStore.write` calls it before commit, after `recordSpans`.
    func recordDays() throws {
        try SampleDayRows.record(db, statements.days)
        statements.days = SampleDayChanges()
    }

    /// Removes a live sample and leaves its tombstone, under the next sequence.
    public func tombstone(_ sample: Sample, patient: String, now: Date) throws {
        let inserted = try db.fetchAll("DELETE FROM samples WHERE patient = ? AND uuid = ? RETURNING seq",
                                       [.text(patient), .blob(sample.uuid.bytes)]) { $0.int64(0) }
        guard inserted.count == 1 else { throw StoreCorruption("tombstoning a sample that is not live") }
        let seq = try nextSequence(patient: patient, kind: 1, uuid: sample.uuid)
        let insert = try db.cachedStatement("""
            INSERT INTO tombstones (seq, patient, uuid, type, start_ms, end_ms, sync_id, sync_version, source, deleted_at_ms,
                                    inserted_seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        try insert.bind(seq, at: 1)
        try insert.bind(patient, at: 2)
        try insert.bind(sample.uuid, at: 3)
        try insert.bind(sample.type.rawValue, at: 4)
        try insert.bind(SyncRules.milliseconds(sample.start), at: 5)
        try insert.bind(SyncRules.milliseconds(sample.end), at: 6)
        try insert.bind(sample.syncIdentifier, at: 7)
        try insert.bind(sample.syncVersion, at: 8)
        try insert.bind(sample.source, at: 9)
        try insert.bind(SyncRules.milliseconds(now), at: 10)
        try insert.bind(inserted[0], at: 11)
        try insert.execute()
        let key = SpanKey(patient: patient, type: sample.type.rawValue)
        statements.checksumDeltas[key, default: TypeChecksum()].remove(SampleDigest.of(uuid: sample.uuid, syncVersion: sample.syncVersion))
        statements.days.remove(patient: patient, sample)
    }
}

extension UUID {
    /// The 16 bytes of the uuid, as stored in BLOB columns.
    var bytes: [UInt8] { withUnsafeBytes(of: uuid) { Array($0) } }
}
