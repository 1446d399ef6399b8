import CareSyncCore
import Foundation

/// Decodes sample rows one after another, reusing the type, source and metadata of an earlier row when a
/// row's text is byte for byte the same (as `SampleRowDecoder` does for SQLite).
struct PostgresSampleRowDecoder {
    private var types = RememberedText<SampleType>()
    private var sources = RememberedText<String>()
    private var metadata = RememberedText<[String: MetadataValue]>()

    /// A sample from a row whose columns are `PostgresSampleRow.sampleColumns` starting at `offset`.
    mutating func sample(_ row: PostgresRow, offset: Int = 0) throws -> Sample {
        let type = try row.withText(offset + 2) { text in
            try types.value(for: text) { _ in try PostgresSampleRow.type(row, offset + 2) }
        } ?? PostgresSampleRow.type(row, offset + 2)
        let source = try row.withText(offset + 8) { text in
            sources.value(for: text) { String(decoding: $0, as: UTF8.self) }
        } ?? row.string(offset + 8)
        let metadata = try row.withText(offset + 9) { text in
            try self.metadata.value(for: text) { try MetadataCoding.decode(String(decoding: $0, as: UTF8.self)) }
        } ?? [:]
        return Sample(uuid: try row.uuid(offset + 1), type: type, value: try row.double(offset + 3),
                      secondValue: row.isNull(offset + 10) ? nil : try row.double(offset + 10),
                      components: try ComponentCoding.decode(try row.optionalString(offset + 11)),
                      start: SyncRules.date(milliseconds: try row.int64(offset + 4)),
                      end: SyncRules.date(milliseconds: try row.int64(offset + 5)),
                      syncIdentifier: try row.optionalString(offset + 6), syncVersion: try row.optionalInt64(offset + 7),
                      source: source, metadata: metadata)
    }
}
