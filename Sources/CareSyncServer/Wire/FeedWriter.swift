import CareSyncCore
import CareSyncHTTP
import CareSyncParallel

/// Writes feed pages straight to bytes: the same JSON as `SampleWire.encode` (keys sorted), without
/// building a dictionary per sample — a 5,000-sample page is the hot path of every device's pull.
enum FeedWriter {
    /// A page is written in parts of at least this many samples, at most one part per core, joined in order.
    static let samplesPerPart = 1_000

    /// The body of a `GET …/changes` answer, with `anchor` the page anchor as the client gets it (sealed).
    static func page(_ page: ChangeSet, anchor: String, unit: HealthUnit?, cores: Int = Parallel.cores) -> [UInt8] {
        var head = ByteBuffer(capacity: 256 + page.deletedObjects.count * 300)
        head.append(#"{"anchor":"#)
        JSONValue.writeString(anchor, into: &head)
        head.append(#","deletedObjects":["#)
        for (n, d) in page.deletedObjects.enumerated() {
            if n > 0 { head.append(",") }
            JSONValue.write(SampleWire.encode(d), into: &head)
        }
        head.append(#"],"hasMore":"#)
        head.append(page.hasMore ? "true" : "false")
        head.append(#","samples":["#)
        let parts = samples(page.samples, unit: unit, cores: cores)
        let tail: StaticString = "]}"
        // One copy of each part into the body.
        return [UInt8](unsafeUninitializedCapacity: head.count + parts.reduce(0) { $0 + $1.buffer.count } + tail.utf8CodeUnitCount) { body, count in
            count = 0
            func copy(_ bytes: UnsafeRawBufferPointer) {
                UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(body)[count...]).copyMemory(from: bytes)
                count += bytes.count
            }
            head.withUnsafeBytes(copy)
            for part in parts { part.buffer.withUnsafeBytes(copy) }
            copy(UnsafeRawBufferPointer(start: tail.utf8Start, count: tail.utf8CodeUnitCount))
        }
    }

    /// The samples as comma-separated JSON objects, written in consecutive parts on up to `cores` cores.
    static func samples(_ samples: [Sample], unit: HealthUnit?, cores: Int) -> [WrittenPart] {
        let parts = max(1, min(cores, samples.count / samplesPerPart))
        let size = (samples.count + parts - 1) / parts
        return Parallel.map(parts) { part in
            let range = min(samples.count, part * size)..<min(samples.count, (part + 1) * size)
            var encoder = FeedSampleEncoder(samples: range.count, unit: unit)
            for index in range {
                if index > 0 { encoder.out.append(",") }
                encoder.sample(samples[index])
            }
            return WrittenPart(encoder.takeBuffer())
        }
    }

    /// One part's bytes, handed from the core that wrote them to the join (read there only).
    final class WrittenPart: @unchecked Sendable {
        let buffer: ByteBuffer

        init(_ buffer: consuming ByteBuffer) { self.buffer = buffer }
    }
}
