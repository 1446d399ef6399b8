import CareSyncCore
import CareSyncHTTP

/// Writes feed pages straight to bytes: the same JSON as `SampleWire.encode` (keys sorted), without
/// building a dictionary per sample — a 5,000-sample page is the hot path of every device's pull.
enum FeedWriter {
    /// Pages with at least this many samples per core are written in parts, one per core, joined in order.
    static let samplesPerPart = 1_000

    /// The body of a `GET …/changes` answer.
    static func page(_ page: ChangeSet, unit: HealthUnit?, cores: Int = Parallel.cores) -> [UInt8] {
        var out = ByteBuffer(capacity: 256 + page.samples.count * 330 + page.deletedObjects.count * 300)
        out.append(#"{"anchor":"#)
        JSONValue.writeString(AnchorWire.encode(page.anchor), into: &out)
        out.append(#","deletedObjects":["#)
        for (n, d) in page.deletedObjects.enumerated() {
            if n > 0 { out.append(",") }
            JSONValue.write(SampleWire.encode(d), into: &out)
        }
        out.append(#"],"hasMore":"#)
        out.append(page.hasMore ? "true" : "false")
        out.append(#","samples":["#)
        for part in samples(page.samples, unit: unit, cores: cores) { out.append(part) }
        out.append("]}")
        return out.bytes()
    }

    /// The samples as comma-separated JSON objects, written in consecutive parts on up to `cores` cores.
    static func samples(_ samples: [Sample], unit: HealthUnit?, cores: Int) -> [[UInt8]] {
        let parts = max(1, min(cores, samples.count / samplesPerPart))
        let size = (samples.count + parts - 1) / parts
        return Parallel.map(parts) { part in
            let range = min(samples.count, part * size)..<min(samples.count, (part + 1) * size)
            var encoder = FeedSampleEncoder(samples: range.count, unit: unit)
            for index in range {
                if index > 0 { encoder.out.append(",") }
                encoder.sample(samples[index])
            }
            return encoder.out.bytes()
        }
    }
}
