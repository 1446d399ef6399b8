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
        out += #"{"end":""#.utf8
        RFC3339.write(s.end, into: &out)
        out += #"","metadata":"#.utf8
        metadata(s.metadata, into: &out)
        out += #","source":"#.utf8
        JSONValue.writeString(s.source, into: &out)
        out += #","start":""#.utf8
        RFC3339.write(s.start, into: &out)
        out += #"""#.utf8
        out += #","syncIdentifier":"#.utf8
        if let id = s.syncIdentifier { JSONValue.writeString(id, into: &out) } else { out += "null".utf8 }
        out += #","syncVersion":"#.utf8
        if let v = s.syncVersion { JSONValue.writeInteger(v, into: &out) } else { out += "null".utf8 }
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

    /// Metadata as `JSONValue.write` writes the object (keys sorted), without building one per sample.
    static func metadata(_ metadata: [String: MetadataValue], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        for (i, key) in metadata.keys.sorted().enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
            switch metadata[key]! {
            case .string(let text): JSONValue.writeString(text, into: &out)
            case .number(let number): JSONValue.writeNumber(number, into: &out)
            case .bool(let flag): out += (flag ? "true" : "false").utf8
            }
        }
        out.append(UInt8(ascii: "}"))
    }
}
