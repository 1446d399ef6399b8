import CareSyncCore

/// Writes feed pages straight to bytes: the same JSON as `SampleWire.encode` (keys sorted), without
/// building a dictionary per sample — a 5,000-sample page is the hot path of every device's pull.
enum FeedWriter {
    /// The body of a `GET …/changes` answer.
    static func page(_ page: ChangeSet, unit: HealthUnit?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256 + page.samples.count * 330 + page.deletedObjects.count * 300)
        out += #"{"anchor":"#.utf8
        JSONValue.writeString(AnchorWire.encode(page.anchor), into: &out)
        out += #","deletedObjects":["#.utf8
        for (n, d) in page.deletedObjects.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.write(SampleWire.encode(d), into: &out)
        }
        out += #"],"hasMore":"#.utf8
        out += (page.hasMore ? "true" : "false").utf8
        out += #","samples":["#.utf8
        for (n, s) in page.samples.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            sample(s, unit: unit, into: &out)
        }
        out += "]}".utf8
        return out
    }

    /// One sample, keys in sorted order as `JSONValue.serialized()` writes them.
    static func sample(_ s: Sample, unit requested: HealthUnit?, into out: inout [UInt8]) {
        if s.secondValue != nil {
            // A correlation (rare in a page): its components, then the same keys as any sample.
            JSONValue.write(SampleWire.encode(s, unit: requested), into: &out)
            return
        }
        out += #"{"end":"#.utf8
        JSONValue.writeString(RFC3339.format(s.end), into: &out)
        out += #","metadata":"#.utf8
        if s.metadata.isEmpty { out += "{}".utf8 } else { JSONValue.write(SampleWire.encode(s.metadata), into: &out) }
        out += #","source":"#.utf8
        JSONValue.writeString(s.source, into: &out)
        out += #","start":"#.utf8
        JSONValue.writeString(RFC3339.format(s.start), into: &out)
        out += #","syncIdentifier":"#.utf8
        if let id = s.syncIdentifier { JSONValue.writeString(id, into: &out) } else { out += "null".utf8 }
        out += #","syncVersion":"#.utf8
        if let v = s.syncVersion { out += String(v).utf8 } else { out += "null".utf8 }
        out += #","type":"#.utf8
        let definition = s.type.definition
        JSONValue.writeString(definition.identifier, into: &out)
        var value = s.value
        if let canonical = definition.canonicalUnit {
            var symbol = canonical.symbol
            // Without `unit=` (the common pull) the stored canonical value goes out unconverted.
            if requested != nil, let unit = s.type.answerUnit(requested) {
                value = canonical.convert(s.value, to: unit)
                symbol = unit.symbol
            }
            out += #","unit":"#.utf8
            JSONValue.writeString(symbol, into: &out)
        }
        out += #","uuid":""#.utf8
        out += s.uuid.uuidString.utf8
        out += #"","value":"#.utf8
        JSONValue.writeNumber(value, into: &out)
        out.append(UInt8(ascii: "}"))
    }
}
