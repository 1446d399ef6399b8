import CareSyncStoreCore
import CareSyncCore
import Foundation

/// How samples and tombstones map to rows of `samples` and `tombstones` (see migrations/0001_sync_store.sql;
/// `second_value` from 0003_correlations.sql, `components` from 0016_food_components.sql).
enum SampleRow {
    /// The columns `decodeSample` reads, in order (after any leading columns given by `offset`).
    static let sampleColumns = "seq, uuid, type, value, start_ms, end_ms, sync_id, sync_version, source, metadata, second_value, components"
    /// The columns `decodeTombstone` reads, in order.
    static let tombstoneColumns = "seq, uuid, type, start_ms, end_ms, sync_id, sync_version, source, deleted_at_ms"

    /// A sample from a row whose columns are `sampleColumns` starting at `offset`.
    static func decodeSample(_ row: Statement, offset: Int32 = 0) throws -> Sample {
        var decoder = SampleRowDecoder()
        return try decoder.sample(row, offset: offset)
    }

    /// A deleted object from a row whose columns are `tombstoneColumns` starting at `offset`.
    static func decodeTombstone(_ row: Statement, offset: Int32 = 0) throws -> DeletedObject {
        DeletedObject(uuid: try uuid(row, offset + 1), type: try type(row, offset + 2),
                      syncIdentifier: row.optionalString(offset + 5), syncVersion: row.optionalInt64(offset + 6),
                      source: row.string(offset + 7),
                      start: SyncRules.date(milliseconds: row.int64(offset + 3)),
                      end: SyncRules.date(milliseconds: row.int64(offset + 4)),
                      deletedAt: SyncRules.date(milliseconds: row.int64(offset + 8)))
    }

    static func uuid(_ row: Statement, _ index: Int32) throws -> UUID {
        guard let uuid = row.uuid(index) else { throw StoreCorruption("uuid column is not 16 bytes") }
        return uuid
    }

    static func type(_ row: Statement, _ index: Int32) throws -> SampleType {
        let name = row.string(index)
        guard let type = SampleType(rawValue: name) else { throw StoreCorruption("unknown sample type \(name)") }
        return type
    }
}

/// A stored row that breaks the schema's invariants (the store core's, shared with PostgreSQL).
public typealias StoreCorruption = CareSyncStoreCore.StoreCorruption
