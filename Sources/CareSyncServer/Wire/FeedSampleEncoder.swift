import CareSyncCore
import Foundation

/// Writes samples as feed JSON into one buffer, remembering what repeats from sample to sample in a page:
/// the day of a timestamp, the last metadata object, and the last type and unit.
struct FeedSampleEncoder: ~Copyable {
    /// The bytes written so far.
    var out: ByteBuffer
    /// The unit the caller asked for, nil for each type's canonical unit.
    let requested: HealthUnit?
    private var day = RememberedDay()
    private var metadata = RememberedMetadata()
    private var typeAndUnit = RememberedTypeAndUnit()

    /// An encoder writing into a buffer sized for about `samples` samples.
    init(samples: Int, unit requested: HealthUnit?) {
        out = ByteBuffer(capacity: 64 + samples * 330)
        self.requested = requested
    }

    /// The bytes written, ending the encoder.
    consuming func takeBuffer() -> ByteBuffer { out }

    /// One sample, keys in sorted order as `JSONValue.serialized()` writes them.
    mutating func sample(_ s: Sample) {
        if s.secondValue != nil || !s.components.isEmpty {
            // A correlation (rare in a page): its components, then the same keys as any sample.
            JSONValue.write(SampleWire.encode(s, unit: requested), into: &out)
            return
        }
        out.append(#"{"end":""#)
        timestamp(s.end)
        out.append(#"","metadata":"#)
        metadata.write(s.metadata, into: &out)
        out.append(#","source":"#)
        JSONValue.writeString(s.source, into: &out)
        out.append(#","start":""#)
        timestamp(s.start)
        out.append(#"","syncIdentifier":"#)
        if let id = s.syncIdentifier { JSONValue.writeString(id, into: &out) } else { out.append("null") }
        out.append(#","syncVersion":"#)
        if let v = s.syncVersion { JSONValue.writeInteger(v, into: &out) } else { out.append("null") }
        out.append(#","type":"#)
        var value = s.value
        if requested == nil {
            // Without `unit=` (the common pull) the stored canonical value goes out unconverted.
            typeAndUnit.writeCanonical(s.type, into: &out)
        } else {
            var unit = s.type.canonicalUnit
            if let canonical = unit, let answer = s.type.answerUnit(requested) {
                value = canonical.convert(s.value, to: answer)
                unit = answer
            }
            typeAndUnit.write(s.type, unit: unit?.symbol, into: &out)
        }
        out.append(#","uuid":""#)
        JSONValue.writeUUIDString(s.uuid, into: &out)
        out.append(#"","value":"#)
        JSONValue.writeNumber(value, into: &out)
        out.append("}")
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` as `RFC3339.write` writes it, the date part remembered from the last call.
    private mutating func timestamp(_ date: Date) {
        let ms = SyncRules.milliseconds(date)
        let seconds = ms.floorDiv(1000), millis = Int(ms.floorMod(1000))
        let days = Int(seconds.floorDiv(86_400)), inDay = Int(seconds.floorMod(86_400))
        guard day.write(days, into: &out) else {
            var text: [UInt8] = []
            RFC3339.write(date, into: &text)
            out.append(text)
            return
        }
        out.reserve(13)
        Self.twoDigits(inDay / 3600, into: &out); out.appendUnchecked(UInt8(ascii: ":"))
        Self.twoDigits(inDay / 60 % 60, into: &out); out.appendUnchecked(UInt8(ascii: ":"))
        Self.twoDigits(inDay % 60, into: &out); out.appendUnchecked(UInt8(ascii: "."))
        out.appendUnchecked(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: millis / 100))
        Self.twoDigits(millis % 100, into: &out); out.appendUnchecked(UInt8(ascii: "Z"))
    }

    @inline(__always) static func twoDigits(_ value: Int, into out: inout ByteBuffer) {
        out.appendUnchecked(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10))
        out.appendUnchecked(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
    }
}

/// The `YYYY-MM-DDT` of the last day written: samples of a page mostly share their day.
private struct RememberedDay {
    private var days = Int.min
    private var text: (UInt64, UInt32) = (0, 0)

    /// Writes the date part of `days` since 1970 and `T`; false (nothing written) outside four-digit years.
    mutating func write(_ days: Int, into out: inout ByteBuffer) -> Bool {
        if days != self.days {
            // Midnight of that day as RFC3339 writes it; its first 11 bytes are the date part.
            var bytes: [UInt8] = []
            RFC3339.write(SyncRules.date(milliseconds: Int64(days) * 86_400_000), into: &bytes)
            guard bytes.count == 24 else { return false }
            withUnsafeMutableBytes(of: &text) { $0.copyBytes(from: bytes[0..<11]) }
            self.days = days
        }
        out.reserve(11)
        withUnsafeBytes(of: text) { out.appendUnchecked(UnsafeRawBufferPointer(rebasing: $0[0..<11])) }
        return true
    }
}

/// The last metadata object and its JSON: a device's samples mostly carry the same metadata.
private struct RememberedMetadata {
    private var last: [String: MetadataValue] = [:]
    private var json: [UInt8] = Array("{}".utf8)

    /// Writes `metadata` as `JSONValue.write` writes the object (keys sorted).
    mutating func write(_ metadata: [String: MetadataValue], into out: inout ByteBuffer) {
        if metadata != last {
            var text = ByteBuffer(capacity: 64)
            text.append("{")
            for (i, key) in metadata.keys.sorted().enumerated() {
                if i > 0 { text.append(",") }
                JSONValue.writeString(key, into: &text)
                text.append(":")
                switch metadata[key]! {
                case .string(let value): JSONValue.writeString(value, into: &text)
                case .number(let number): JSONValue.writeNumber(number, into: &text)
                case .bool(let flag): text.append(flag ? "true" : "false")
                }
            }
            text.append("}")
            last = metadata
            json = text.bytes()
        }
        out.append(json)
    }
}

/// `"type":"…","unit":"…"` of the last type and unit written: a page's samples mostly share them.
private struct RememberedTypeAndUnit {
    private var type: SampleType?
    private var unit: String?
    /// Whether `unit` is `type`'s canonical unit, as `writeCanonical` wrote it.
    private var canonical = false
    private var json: [UInt8] = []

    /// Writes the type's identifier and, for a type with units, its canonical unit's symbol, looked up only when
    /// the type differs from the last one's.
    mutating func writeCanonical(_ type: SampleType, into out: inout ByteBuffer) {
        guard canonical, type == self.type else {
            write(type, unit: type.canonicalUnit?.symbol, into: &out)
            canonical = true
            return
        }
        out.append(json)
    }

    /// Writes the type's identifier and, for a type with units, the unit's symbol.
    mutating func write(_ type: SampleType, unit: String?, into out: inout ByteBuffer) {
        canonical = false
        if type != self.type || unit != self.unit {
            var text = ByteBuffer(capacity: 64)
            JSONValue.writeString(type.definition.identifier, into: &text)
            if let unit {
                text.append(#","unit":"#)
                JSONValue.writeString(unit, into: &text)
            }
            self.type = type
            self.unit = unit
            json = text.bytes()
        }
        out.append(json)
    }
}
