import CareSyncCore
import Foundation

extension SQLiteSyncStore {
    /// The starts of the source's live samples at or after `from`: one range of the covering index `samples_span
    /// (patient, type, start_ms, …, source)` per type the patient has (`sample_spans` names them), in one snapshot.
    public func sampleStarts(patient: String, source: String, types: Set<SampleType>?, from: Date) throws -> [Date] {
        if let types, types.isEmpty { return [] }
        let since = SyncRules.milliseconds(from)
        return try database.read { db in
            let stored = try db.fetchAll("SELECT type FROM sample_spans WHERE patient = ?", [.text(patient)]) { $0.string(0) }
            var starts: [Date] = []
            for type in stored where types?.contains(where: { $0.rawValue == type }) ?? true {
                starts += try db.fetchAll("SELECT start_ms FROM samples WHERE patient = ? AND type = ? AND start_ms >= ? AND source = ?",
                                          [.text(patient), .text(type), .integer(since), .text(source)]) {
                    SyncRules.date(milliseconds: $0.int64(0))
                }
            }
            return starts
        }
    }

    /// The newest live samples of `type`: `samples_span` in descending start order, ties by uuid (its bytes order as
    /// its text does).
    public func newestSamples(patient: String, type: SampleType, limit: Int) throws -> [Sample] {
        try database.read { db in
            try db.fetchAll("SELECT \(SampleRow.sampleColumns) FROM samples WHERE patient = ? AND type = ? ORDER BY start_ms DESC, uuid DESC LIMIT ?",
                            [.text(patient), .text(type.rawValue), .integer(Int64(max(0, limit)))]) { try SampleRow.decodeSample($0) }
        }
    }
}
