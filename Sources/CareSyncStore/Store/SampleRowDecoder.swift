import CareSyncCore
import Foundation

/// Decodes sample rows one after another, reusing the type, source and metadata of an earlier row when a
/// row's text is byte for byte the same (a page's samples mostly come from a few devices with the same metadata).
struct SampleRowDecoder {
    private var types = RememberedText<SampleType>()
    private var sources = RememberedText<String>()
    private var metadata = RememberedText<[String: MetadataValue]>()

    /// A sample from a row whose columns are `SampleRow.sampleColumns` starting at `offset`.
    mutating func sample(_ row: Statement, offset: Int32 = 0) throws -> Sample {
        let type = try types.value(for: row, column: offset + 2) { _ in try SampleRow.type(row, offset + 2) }
            ?? SampleRow.type(row, offset + 2)
        let source = sources.value(for: row, column: offset + 8) { String(decoding: $0, as: UTF8.self) } ?? ""
        let metadata = try self.metadata.value(for: row, column: offset + 9) {
            try MetadataCoding.decode(String(decoding: $0, as: UTF8.self))
        } ?? [:]
        return Sample(uuid: try SampleRow.uuid(row, offset + 1), type: type, value: row.double(offset + 3),
                      secondValue: row.optionalDouble(offset + 10),
                      components: try ComponentCoding.decode(row.optionalString(offset + 11)),
                      start: SyncRules.date(milliseconds: row.int64(offset + 4)),
                      end: SyncRules.date(milliseconds: row.int64(offset + 5)),
                      syncIdentifier: row.optionalString(offset + 6), syncVersion: row.optionalInt64(offset + 7),
                      source: source, metadata: metadata)
    }
}

extension RememberedText {
    /// The value of column `column`'s text in `row`, nil when it is NULL.
    mutating func value(for row: Statement, column: Int32, make: (UnsafeRawBufferPointer) throws -> Value) rethrows -> Value? {
        try row.withText(column) { try value(for: $0, make: make) }
    }
}
