import CareSyncCore

/// Writes the answer to `POST …/samples` straight to bytes: the same JSON as `SamplesController` (keys
/// sorted), without a dictionary per item — a 5,000-sample batch answers with 5,000 results.
enum UpsertReplyWriter {
    /// `{"anchor": …, "results": [{"index", "outcome", "reason"?, "uuid"}, …]}`.
    static func body(_ result: UpsertBatchResult, anchor: String) -> [UInt8] {
        var out = ByteBuffer(capacity: 64 + result.results.count * 90)
        out.append(#"{"anchor":"#)
        JSONValue.writeString(anchor, into: &out)
        out.append(#","results":["#)
        for (n, r) in result.results.enumerated() {
            if n > 0 { out.append(",") }
            out.append(#"{"index":"#)
            JSONValue.writeInteger(Int64(r.index), into: &out)
            switch r.outcome {
            case .inserted: out.append(#","outcome":"inserted""#)
            case .replaced: out.append(#","outcome":"replaced""#)
            case .ignored(let reason):
                out.append(#","outcome":"ignored","reason":"#)
                JSONValue.writeString(reason.rawValue, into: &out)
            }
            out.append(#","uuid":""#)
            JSONValue.writeUUIDString(r.uuid, into: &out)
            out.append(#""}"#)
        }
        out.append("]}")
        return out.bytes()
    }
}
