import CareSyncCore
import Foundation

/// The writer's rows: lookups answered from what a batch read ahead or else from the database (after
/// sending what is pending, so a lookup always sees every earlier write), and writes queued in `pending`.
extension PostgresWriter {
    /// Reads what the store holds under every uuid and key of a batch, in two statements.
    func readAhead(uuids: [UUID], patient: String, source: String, syncIdentifiers: [String]) throws {
        try flush()
        if !uuids.isEmpty {
            let found = try fetchExisting(uuids, patient: patient)
            for uuid in uuids { known.byUUID[PostgresKnownRows.SampleID(patient: patient, uuid: uuid)] = found[uuid] ?? .unknown }
        }
        if !syncIdentifiers.isEmpty {
            let found = try fetchLive(patient: patient, source: source, syncIdentifiers: syncIdentifiers)
            for id in syncIdentifiers {
                known.byKey.updateValue(found[id], forKey: PostgresKnownRows.Key(patient: patient, source: source, syncIdentifier: id))
            }
        }
    }

    /// Sends what is pending and forgets what was read ahead: the end of one `upsert` or `delete`.
    func endBatch() throws {
        try flush()
        known = PostgresKnownRows()
    }

    /// Sends the pending inserts and tombstones.
    func flush() throws {
        if !pending.isEmpty { try pending.send(db) }
    }

    /// The live sample of (patient, source, syncIdentifier), if any.
    func liveSample(patient: String, source: String, syncIdentifier: String) throws -> Sample? {
        if let sample = known.byKey[PostgresKnownRows.Key(patient: patient, source: source, syncIdentifier: syncIdentifier)] {
            return sample
        }
        try flush()
        return try fetchLive(patient: patient, source: source, syncIdentifiers: [syncIdentifier])[syncIdentifier]
    }

    /// What the store holds under a uuid for `patient`: a live sample, a tombstone, or nothing.
    func existing(uuid: UUID, patient: String) throws -> ExistingUUID {
        if let existing = known.byUUID[PostgresKnownRows.SampleID(patient: patient, uuid: uuid)] { return existing }
        try flush()
        return try fetchExisting([uuid], patient: patient)[uuid] ?? .unknown
    }

    /// Queues `input` as a new live sample (the client's uuid, else a new one) under the next sequence; returns its uuid.
    @discardableResult
    func insert(_ input: SampleInput, patient: String, source: String) throws -> UUID {
        let uuid = input.uuid ?? TimeOrderedUUID.make(date: Date(), random: (random.next(), random.next()))
        let seq = try nextSequence(patient: patient)
        try pending.insert(input, seq: seq, uuid: uuid, patient: patient, source: source)
        known.forget(PostgresKnownRows.SampleID(patient: patient, uuid: uuid), key: input.syncIdentifier.map { .init(patient: patient, source: source, syncIdentifier: $0) })
        let start = SyncRules.milliseconds(input.start), end = SyncRules.milliseconds(input.end)
        let key = SpanKey(patient: patient, type: input.type.rawValue)
        part.longest[key] = max(part.longest[key] ?? 0, end - start)
        part.checksumDeltas[key, default: TypeChecksum()].add(SampleDigest.of(uuid: uuid, syncVersion: input.syncVersion))
        part.days.add(patient: patient, source: source, type: input.type, start: start, end: end, value: input.value)
        return uuid
    }

    /// Queues moving a live sample to its tombstone under the next sequence.
    func tombstone(_ sample: Sample, patient: String, now: Date) throws {
        let seq = try nextSequence(patient: patient)
        pending.tombstone(uuid: sample.uuid, patient: patient, seq: seq, deletedAt: SyncRules.milliseconds(now))
        known.forget(PostgresKnownRows.SampleID(patient: patient, uuid: sample.uuid), key: sample.syncIdentifier.map { .init(patient: patient, source: sample.source, syncIdentifier: $0) })
        part.checksumDeltas[SpanKey(patient: patient, type: sample.type.rawValue), default: TypeChecksum()]
            .remove(SampleDigest.of(uuid: sample.uuid, syncVersion: sample.syncVersion))
        part.days.remove(patient: patient, sample)
    }

    /// The live samples of (patient, source) under `syncIdentifiers`, by identifier: one statement.
    private func fetchLive(patient: String, source: String, syncIdentifiers: [String]) throws -> [String: Sample] {
        let rows = try db.query("""
            SELECT \(PostgresSampleRow.sampleColumns) FROM samples
            WHERE patient = $1 AND source = $2 AND sync_id = ANY($3) AND sync_id IS NOT NULL
            """, [.text(patient), .text(source), .array(syncIdentifiers)])
        var found: [String: Sample] = [:]
        for index in 0..<rows.count {
            let sample = try PostgresSampleRow.decodeSample(rows[index])
            if let id = sample.syncIdentifier { found[id] = sample }
        }
        return found
    }

    /// What the store holds for `patient` under each of `uuids` (a uuid it knows nothing of is absent): one statement.
    private func fetchExisting(_ uuids: [UUID], patient: String) throws -> [UUID: ExistingUUID] {
        let rows = try db.query("""
            SELECT 0, patient, \(PostgresSampleRow.sampleColumns) FROM samples WHERE patient = $2 AND uuid = ANY($1)
            UNION ALL SELECT 1, NULL, NULL, uuid, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM tombstones
            WHERE patient = $2 AND uuid = ANY($1)
            """, [.array(uuids), .text(patient)])
        var found: [UUID: ExistingUUID] = [:]
        for index in 0..<rows.count {
            let row = rows[index]
            if try row.int64(0) == 0 {
                let sample = try PostgresSampleRow.decodeSample(row, offset: 2)
                found[sample.uuid] = .live(sample, patient: try row.string(1))
            } else {
                found[try row.uuid(3)] = .deleted
            }
        }
        return found
    }
}
