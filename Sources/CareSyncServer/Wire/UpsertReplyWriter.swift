import CareSyncCore

/// Writes the answer to `POST …/samples` straight to bytes: the same JSON as `CareSyncAPI.encode` (keys
/// sorted), without a dictionary per item — a 5,000-sample batch answers with 5,000 results.
enum UpsertReplyWriter {
    /// `{"anchor": …, "results": [{"index", "outcome", "reason"?, "uuid"}, …]}`.
    static func body(_ result: UpsertBatchResult) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + result.results.count * 90)
        out += #"{"anchor":"#.utf8
        JSONValue.writeString(AnchorWire.encode(result.anchor), into: &out)
        out += #","results":["#.utf8
        for (n, r) in result.results.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            out += #"{"index":"#.utf8
            out += String(r.index).utf8
            switch r.outcome {
            case .inserted: out += #","outcome":"inserted""#.utf8
            case .replaced: out += #","outcome":"replaced""#.utf8
            case .ignored(let reason):
                out += #","outcome":"ignored","reason":"#.utf8
                JSONValue.writeString(reason.rawValue, into: &out)
            }
            out += #","uuid":""#.utf8
            out += r.uuid.uuidString.utf8
            out += #""}"#.utf8
        }
        out += "]}".utf8
        return out
    }
}
