import CareSyncCore
import Foundation

/// How samples and tombstones map to rows of `samples` and `tombstones` (migrations/postgresql/0001_store.sql;
/// `second_value`, a correlation's second component, from 0002_correlations.sql).
enum PostgresSampleRow {
    /// The columns `decodeSample` reads, in order (after any leading columns given by `offset`).
    static let sampleColumns = "seq, uuid, type, value, start_ms, end_ms, sync_id, sync_version, source, metadata, second_value"

    /// A sample from a row whose columns are `sampleColumns` starting at `offset`.
    static func decodeSample(_ row: PostgresRow, offset: Int = 0) throws -> Sample {
        Sample(uuid: try row.uuid(offset + 1), type: try type(row, offset + 2), value: try row.double(offset + 3),
               secondValue: row.isNull(offset + 10) ? nil : try row.double(offset + 10),
               start: SyncRules.date(milliseconds: try row.int64(offset + 4)),
               end: SyncRules.date(milliseconds: try row.int64(offset + 5)),
               syncIdentifier: try row.optionalString(offset + 6), syncVersion: try row.optionalInt64(offset + 7),
               source: try row.string(offset + 8),
               metadata: try MetadataCoding.decode(try row.optionalString(offset + 9)))
    }

    /// The sample type of a column.
    static func type(_ row: PostgresRow, _ column: Int) throws -> SampleType {
        let name = try row.string(column)
        guard let type = SampleType(rawValue: name) else { throw PostgresStoreCorruption("unknown sample type \(name)") }
        return type
    }
}

/// A stored row that breaks the schema's invariants (written by something else, or damaged).
public struct PostgresStoreCorruption: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}
