import CareSyncCore
import Foundation

/// An Observation's JSON written straight into bytes, for the bulk export's NDJSON lines: the same bytes as
/// `FHIRWire.observation(o).serialized()` (members in sorted order, the same number and string writers) without
/// building a dictionary per member. `FHIRWire.observation` stays the reference; `ObservationLineWriterTests` holds the
/// two equal over every catalogue type.
enum ObservationLineWriter {
    /// The Observation's JSON, one line without its newline.
    static func line(_ o: FHIRObservation) -> [UInt8] {
        var out = ByteBuffer(capacity: 1024)
        write(o, into: &out)
        return out.bytes()
    }

    /// Appends the Observation's JSON to `out`; its members are written in the order sorting their names gives.
    static func write(_ o: FHIRObservation, into out: inout ByteBuffer) {
        out.append("{")
        if let category = o.category {
            out.append("\"category\":[{\"coding\":[")
            coding(FHIRCoding(system: FHIRSystem.observationCategory, code: category.rawValue, display: category.display), into: &out)
            out.append("]}],")
        }
        out.append("\"code\":{\"coding\":[")
        for (i, c) in o.codings.enumerated() {
            if i > 0 { out.append(",") }
            coding(c, into: &out)
        }
        text("],\"text\":", o.codings.last?.display ?? o.id, into: &out)
        out.append("},")
        if !o.components.isEmpty {
            out.append("\"component\":[")
            for (i, component) in o.components.enumerated() {
                if i > 0 { out.append(",") }
                out.append("{\"code\":{\"coding\":[")
                coding(component.coding, into: &out)
                out.append("]},\"valueQuantity\":")
                quantity(component.quantity, into: &out)
                out.append("}")
            }
            out.append("],")
        }
        text("\"device\":{\"display\":", o.source, into: &out)
        out.append("},")
        switch o.effective {
        case .instant(let at):
            out.append("\"effectiveDateTime\":")
            instant(at, into: &out)
        case .period(let start, let end):
            out.append("\"effectivePeriod\":{\"end\":")
            instant(end, into: &out)
            out.append(",\"start\":")
            instant(start, into: &out)
            out.append("}")
        }
        text(",\"id\":", o.id, into: &out)
        identifiers(o, into: &out)
        meta(o, into: &out)
        if o.enteredByTherapist {
            text(",\"performer\":[{\"display\":", o.source, into: &out)
            out.append(",\"type\":\"Practitioner\"}]")
        }
        text(",\"resourceType\":\"Observation\",\"status\":\"final\",\"subject\":{\"reference\":", "Patient/" + o.patient, into: &out)
        out.append("}")
        switch o.value {
        case .quantity(let q):
            out.append(",\"valueQuantity\":")
            quantity(q, into: &out)
        case .concept(let c):
            out.append(",\"valueCodeableConcept\":{\"coding\":[")
            coding(c, into: &out)
            text("],\"text\":", c.display, into: &out)
            out.append("}")
        case .none: break
        }
        out.append("}")
    }

    /// `,"identifier":[…]`: the uuid URN, then the sync identifier with its source as the assigner.
    static func identifiers(_ o: FHIRObservation, into out: inout ByteBuffer) {
        text(",\"identifier\":[{\"system\":", FHIRSystem.uri, into: &out)
        text(",\"value\":", o.uuidURN, into: &out)
        out.append("}")
        if let sync = o.syncIdentifier {
            text(",{\"assigner\":{\"display\":", o.source, into: &out)
            text("},\"system\":", FHIRSystem.syncIdentifier, into: &out)
            text(",\"value\":", sync, into: &out)
            out.append("}")
        }
        out.append("]")
    }

    /// `,"meta":{…}` when the Observation has a last-updated time or a version.
    static func meta(_ o: FHIRObservation, into out: inout ByteBuffer) {
        guard o.lastUpdated != nil || o.versionId != nil else { return }
        out.append(",\"meta\":{")
        if let lastUpdated = o.lastUpdated {
            out.append("\"lastUpdated\":")
            instant(lastUpdated, into: &out)
            if o.versionId != nil { out.append(",") }
        }
        if let version = o.versionId {
            text("\"versionId\":", version, into: &out)
        }
        out.append("}")
    }

    /// A Coding: code, display, system.
    static func coding(_ c: FHIRCoding, into out: inout ByteBuffer) {
        text("{\"code\":", c.code, into: &out)
        text(",\"display\":", c.display, into: &out)
        text(",\"system\":", c.system, into: &out)
        out.append("}")
    }

    /// A Quantity: code, system, unit, value.
    static func quantity(_ q: FHIRObservation.Quantity, into out: inout ByteBuffer) {
        text("{\"code\":", q.code, into: &out)
        text(",\"system\":", FHIRSystem.ucum, into: &out)
        text(",\"unit\":", q.unit, into: &out)
        out.append(",\"value\":")
        JSONValue.writeNumber(q.value, into: &out)
        out.append("}")
    }

    /// An instant as a quoted RFC 3339 string (its characters need no escaping).
    static func instant(_ date: Date, into out: inout ByteBuffer) {
        var text: [UInt8] = [UInt8(ascii: "\"")]
        text.reserveCapacity(26)
        RFC3339.write(date, into: &text)
        text.append(UInt8(ascii: "\""))
        out.append(text)
    }

    /// Appends `prefix` (JSON punctuation and a member name) and then `value` as a JSON string.
    @inline(__always) static func text(_ prefix: StaticString, _ value: String, into out: inout ByteBuffer) {
        out.append(prefix)
        JSONValue.writeString(value, into: &out)
    }
}
