import CareSyncCore
import Foundation

extension PostgresSyncStore {
    /// The starts of the source's live samples at or after `from`: one range of `samples_span (patient, type,
    /// start_ms) INCLUDE (…, source)` per type the patient has (`sample_spans` names them), in one snapshot.
    public func sampleStarts(patient: String, source: String, types: Set<SampleType>?, from: Date) throws -> [Date] {
        if let types, types.isEmpty { return [] }
        let since = SyncRules.milliseconds(from)
        return try database.read { db in
            let stored = try db.query("SELECT type FROM sample_spans WHERE patient = $1", [.text(patient)]).map { try $0.string(0) }
            var starts: [Date] = []
            for type in stored where types?.contains(where: { $0.rawValue == type }) ?? true {
                starts += try db.query("SELECT start_ms FROM samples WHERE patient = $1 AND type = $2 AND start_ms >= $3 AND source = $4",
                                       [.text(patient), .text(type), .int64(since), .text(source)]).map {
                    SyncRules.date(milliseconds: try $0.int64(0))
                }
            }
            return starts
        }
    }

    /// The newest live samples of `type`: `samples_span` in descending start order, ties by uuid (compared bytewise,
    /// as its text orders).
    public func newestSamples(patient: String, type: SampleType, limit: Int) throws -> [Sample] {
        try database.read { db in
            try db.query("SELECT \(PostgresSampleRow.sampleColumns) FROM samples WHERE patient = $1 AND type = $2 ORDER BY start_ms DESC, uuid DESC LIMIT $3",
                         [.text(patient), .text(type.rawValue), .int64(Int64(max(0, limit)))]).map { try PostgresSampleRow.decodeSample($0) }
        }
    }
}
