import CareSyncCore
import Foundation

/// Sample inserts and tombstones a writer has numbered but not sent yet: `send` writes them all in two
/// statements (arrays through `unnest`), so a batch of 500 samples costs two round trips, not 500.
struct PostgresPendingRows {
    private var seqs: [Int64] = [], patients: [String] = [], uuids: [UUID] = [], types: [String] = []
    private var values: [Double] = [], starts: [Int64] = [], ends: [Int64] = [], syncIDs: [String?] = []
    private var versions: [Int64?] = [], sources: [String] = [], metadata: [String?] = [], userEntered: [Bool] = []
    private var secondValues: [Double?] = [], components: [String?] = []
    private var doomed: [UUID] = [], doomedPatients: [String] = [], tombstoneSeqs: [Int64] = [], deletedAt: [Int64] = []

    /// Whether nothing waits.
    var isEmpty: Bool { seqs.isEmpty && doomed.isEmpty }

    /// Queues a new live sample under `seq`.
    mutating func insert(_ input: SampleInput, seq: Int64, uuid: UUID, patient: String, source: String) throws {
        seqs.append(seq); patients.append(patient); uuids.append(uuid); types.append(input.type.rawValue)
        values.append(input.value); starts.append(SyncRules.milliseconds(input.start)); ends.append(SyncRules.milliseconds(input.end))
        syncIDs.append(input.syncIdentifier); versions.append(input.syncVersion); sources.append(source)
        metadata.append(try MetadataCoding.encode(input.metadata))
        userEntered.append(input.metadata["wasUserEntered"] == .bool(true)); secondValues.append(input.secondValue)
        components.append(try ComponentCoding.encode(input.components))
    }

    /// Queues moving the live sample `uuid` of `patient` to a tombstone under `seq`.
    mutating func tombstone(uuid: UUID, patient: String, seq: Int64, deletedAt ms: Int64) {
        doomed.append(uuid); doomedPatients.append(patient); tombstoneSeqs.append(seq); deletedAt.append(ms)
    }

    /// Writes the tombstones, then the inserts (a replacement's key is free only once its predecessor is gone), and empties.
    mutating func send(_ db: PostgresConnection) throws {
        if !doomed.isEmpty {
            let moved = try db.query("""
                WITH gone AS (
                  DELETE FROM samples s USING unnest($1::uuid[], $2::bigint[], $3::bigint[], $4::text[]) AS d(uuid, seq, deleted_at_ms, patient)
                  WHERE s.patient = d.patient AND s.uuid = d.uuid
                  RETURNING d.seq AS tombstone_seq, d.deleted_at_ms, s.seq, s.patient, s.uuid, s.type, s.start_ms, s.end_ms,
                            s.sync_id, s.sync_version, s.source)
                INSERT INTO tombstones (seq, patient, uuid, type, start_ms, end_ms, sync_id, sync_version, source, deleted_at_ms,
                                        inserted_seq)
                SELECT tombstone_seq, patient, uuid, type, start_ms, end_ms, sync_id, sync_version, source, deleted_at_ms, seq FROM gone
                """, [.array(doomed), .array(tombstoneSeqs), .array(deletedAt), .array(doomedPatients)])
            guard moved.affected == doomed.count else { throw PostgresStoreCorruption("tombstoning a sample that is not live") }
            doomed = []; doomedPatients = []; tombstoneSeqs = []; deletedAt = []
        }
        guard !seqs.isEmpty else { return }
        try db.send("""
            INSERT INTO samples (seq, patient, uuid, type, value, start_ms, end_ms, sync_id, sync_version, source, metadata,
                                 user_entered, second_value, components)
            SELECT * FROM unnest($1::bigint[], $2::text[], $3::uuid[], $4::text[], $5::float8[], $6::bigint[], $7::bigint[],
                                 $8::text[], $9::bigint[], $10::text[], $11::text[], $12::boolean[], $13::float8[], $14::text[])
            """, [.array(seqs), .array(patients), .array(uuids), .array(types), .array(values), .array(starts), .array(ends),
                  .array(syncIDs), .array(versions), .array(sources), .array(metadata), .array(userEntered), .array(secondValues),
                  .array(components)])
        self = PostgresPendingRows()
    }
}
