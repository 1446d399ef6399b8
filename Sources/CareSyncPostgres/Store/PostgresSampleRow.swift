import CareSyncStoreCore
import CareSyncCore
import Foundation

/// How samples and tombstones map to rows of `samples` and `tombstones` (migrations/postgresql/0001_store.sql;
/// `second_value`, a correlation's second component, from 0002_correlations.sql).
enum PostgresSampleRow {
    /// The columns `decodeSample` reads, in order (after any leading columns given by `offset`).
    static let sampleColumns = "seq, uuid, type, value, start_ms, end_ms, sync_id, sync_version, source, metadata, second_value, components"

    /// A sample from a row whose columns are `sampleColumns` starting at `offset`.
    static func decodeSample(_ row: PostgresRow, offset: Int = 0) throws -> Sample {
        var decoder = PostgresSampleRowDecoder()
        return try decoder.sample(row, offset: offset)
    }

    /// The sample type of a column.
    static func type(_ row: PostgresRow, _ column: Int) throws -> SampleType {
        let name = try row.string(column)
        guard let type = SampleType(rawValue: name) else { throw PostgresStoreCorruption("unknown sample type \(name)") }
        return type
    }
}

/// A stored row that breaks the schema's invariants (the store core's `StoreCorruption`, as on SQLite).
public typealias PostgresStoreCorruption = StoreCorruption
