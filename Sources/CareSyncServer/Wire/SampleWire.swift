import Foundation
import CareSyncCore

/// Samples and deleted objects on the wire: decoding a client's draft with every problem named,
/// and encoding stored samples in the canonical or a requested unit.
public enum SampleWire {
    /// Most metadata keys a sample may carry.
    public static let maxMetadataKeys = 64
    /// Most bytes of serialized metadata a sample may carry.
    public static let maxMetadataBytes = 4096
    /// Longest sync identifier accepted.
    public static let maxSyncIdentifierLength = 512

    /// What `decode` reads besides the common fields.
    public struct Options: Sendable {
        /// Whether `uuid`, `syncIdentifier` and `syncVersion` may be given (not inside weekly reports).
        public var allowsIdentity = true
        /// The caller's source; a sample naming another one is refused.
        public var callerSource: String
        public init(allowsIdentity: Bool = true, callerSource: String) {
            self.allowsIdentity = allowsIdentity; self.callerSource = callerSource
        }
    }

    /// Validates one sample draft; appends every problem with `index` and returns nil when there is any.
    public static func decode(_ value: JSONValue, index: Int, options: Options,
                              problems: inout [ValidationProblem]) -> SampleInput? {
        let before = problems.count
        func fail(_ field: String, _ message: String) {
            problems.append(ValidationProblem(index: index, field: field, message: message))
        }
        guard let o = value.objectValue else {
            fail("", "a sample must be a JSON object, not \(value.kindName)")
            return nil
        }
        var uuid: UUID?
        if let u = o["uuid"], u != .null {
            if options.allowsIdentity, let s = u.stringValue, let parsed = UUID(uuidString: s) { uuid = parsed }
            else if !options.allowsIdentity { fail("uuid", "uuids of report samples are assigned by the server") }
            else { fail("uuid", "must be a UUID string") }
        }
        var type: SampleType?
        switch o["type"] {
        case nil, .null?: fail("type", "is required")
        case .string(let s)?:
            if let t = SampleType(rawValue: s) { type = t }
            else { fail("type", "unknown sample type '\(s)'") }
        case let other?: fail("type", "must be a string, not \(other.kindName)")
        }
        var value: Double?
        switch o["value"] {
        case nil, .null?: fail("value", "is required")
        case .number(let n)?:
            if !n.isFinite { fail("value", "must be finite") } else { value = n }
        case let other?: fail("value", "must be a number, not \(other.kindName)")
        }
        var unit: HealthUnit?
        if let t = type {
            switch (o["unit"], t.canonicalUnit) {
            case (nil, nil), (.null?, nil): break
            case (let given?, nil) where given != .null:
                fail("unit", "\(t.rawValue) is a category type and takes no unit")
            case (nil, _), (.null?, _): fail("unit", "is required for \(t.rawValue)")
            case (.string(let symbol)?, let canonical?):
                if let u = HealthUnit.named(symbol) {
                    if u.isCompatible(with: canonical) { unit = u }
                    else { fail("unit", "unit '\(symbol)' is not compatible with \(t.rawValue) (canonical unit \(canonical.symbol))") }
                } else {
                    fail("unit", "unit '\(symbol)' is not compatible with \(t.rawValue): unknown unit")
                }
            case (let other?, _): fail("unit", "must be a string, not \(other.kindName)")
            }
            if let v = value {
                switch t.aggregation {
                case .cumulative where v < 0: fail("value", "must not be negative for cumulative type \(t.rawValue)")
                case .category where !(v == v.rounded() && v >= 0 && v <= 5):
                    fail("value", "\(t.rawValue) takes an integer category value 0–5")
                default: break
                }
            }
        }
        let start = date(o["start"], field: "start", fail: fail)
        let end = date(o["end"], field: "end", fail: fail)
        if let s = start, let e = end, e < s { fail("end", "must not be before start") }

        var syncIdentifier: String?
        var syncVersion: Int64?
        if options.allowsIdentity {
            switch o["syncIdentifier"] {
            case nil, .null?: break
            case .string(let s)?:
                if s.isEmpty { fail("syncIdentifier", "must not be empty") }
                else if s.utf8.count > maxSyncIdentifierLength { fail("syncIdentifier", "longer than \(maxSyncIdentifierLength) bytes") }
                else { syncIdentifier = s }
            case let other?: fail("syncIdentifier", "must be a string, not \(other.kindName)")
            }
            let hasIdentifier = o["syncIdentifier"].map { $0 != .null } ?? false
            switch o["syncVersion"] {
            case nil, .null?:
                if hasIdentifier { fail("syncVersion", "is required when syncIdentifier is given") }
            case .number(let n)?:
                if !hasIdentifier { fail("syncVersion", "is not allowed without syncIdentifier") }
                else if let v = integer(n), v >= 0 { syncVersion = v }
                else { fail("syncVersion", "must be a non-negative integer") }
            case let other?: fail("syncVersion", "must be an integer, not \(other.kindName)")
            }
        } else {
            for key in ["syncIdentifier", "syncVersion"] where o[key].map({ $0 != .null }) ?? false {
                fail(key, "is derived from the report and must not be given")
            }
        }
        if let src = o["source"], src != .null, src != .string(options.callerSource) {
            fail("source", "is stamped from the caller's token; a client cannot write as another source")
        }
        let metadata = self.metadata(o["metadata"], fail: fail)

        guard problems.count == before, let type, let value, let start, let end else { return nil }
        let canonicalValue = unit.map { u in u.convert(value, to: type.canonicalUnit!) } ?? value
        return SampleInput(uuid: uuid, type: type, value: canonicalValue, start: start, end: end,
                           syncIdentifier: syncIdentifier, syncVersion: syncVersion, metadata: metadata ?? [:])
    }

    static func date(_ v: JSONValue?, field: String, fail: (String, String) -> Void) -> Date? {
        switch v {
        case nil, .null?: fail(field, "is required"); return nil
        case .string(let s)?:
            if let d = RFC3339.parse(s) { return d }
            fail(field, "must be an RFC 3339 date-time with an offset or Z, such as 2020-06-18T09:30:00Z")
            return nil
        case let other?: fail(field, "must be an RFC 3339 string, not \(other.kindName)"); return nil
        }
    }

    static func integer(_ n: Double) -> Int64? {
        guard n == n.rounded(), abs(n) <= 9_007_199_254_740_992 else { return nil }
        return Int64(n)
    }

    static func metadata(_ v: JSONValue?, fail: (String, String) -> Void) -> [String: MetadataValue]? {
        switch v {
        case nil, .null?: return [:]
        case .object(let o)?:
            var result: [String: MetadataValue] = [:]
            var ok = true
            if o.count > maxMetadataKeys { fail("metadata", "at most \(maxMetadataKeys) keys"); ok = false }
            if JSONValue.object(o).serialized().count > maxMetadataBytes { fail("metadata", "at most \(maxMetadataBytes) bytes"); ok = false }
            for (key, value) in o.sorted(by: { $0.key < $1.key }) {
                switch value {
                case .string(let s): result[key] = .string(s)
                case .number(let n): result[key] = .number(n)
                case .bool(let b): result[key] = .bool(b)
                default: fail("metadata.\(key)", "must be a string, number or boolean, not \(value.kindName)"); ok = false
                }
                if key == "wasUserEntered", value.boolValue == nil {
                    fail("metadata.wasUserEntered", "must be a boolean"); ok = false
                }
            }
            return ok ? result : nil
        case let other?: fail("metadata", "must be an object, not \(other.kindName)"); return nil
        }
    }

    /// A stored sample as JSON, its value in `unit` when given and compatible, else the canonical unit.
    public static func encode(_ s: Sample, unit requested: HealthUnit? = nil) -> JSONValue {
        var o: [String: JSONValue] = [
            "uuid": .string(s.uuid.uuidString), "type": .string(s.type.rawValue),
            "start": .string(RFC3339.format(s.start)), "end": .string(RFC3339.format(s.end)),
            "syncIdentifier": .optional(s.syncIdentifier), "syncVersion": .optional(s.syncVersion),
            "source": .string(s.source), "metadata": encode(s.metadata),
        ]
        if let canonical = s.type.canonicalUnit {
            let unit = requested.flatMap { $0.isCompatible(with: canonical) ? $0 : nil } ?? canonical
            o["value"] = .number(canonical.convert(s.value, to: unit))
            o["unit"] = .string(unit.symbol)
        } else {
            o["value"] = .number(s.value)
        }
        return .object(o)
    }

    /// Metadata as a JSON object.
    public static func encode(_ metadata: [String: MetadataValue]) -> JSONValue {
        .object(metadata.mapValues { v in
            switch v {
            case .string(let s): .string(s)
            case .number(let n): .number(n)
            case .bool(let b): .bool(b)
            }
        })
    }

    /// A tombstone as JSON.
    public static func encode(_ d: DeletedObject) -> JSONValue {
        [
            "uuid": .string(d.uuid.uuidString), "type": .string(d.type.rawValue),
            "syncIdentifier": .optional(d.syncIdentifier), "syncVersion": .optional(d.syncVersion),
            "source": .string(d.source), "start": .string(RFC3339.format(d.start)),
            "end": .string(RFC3339.format(d.end)), "deletedAt": .string(RFC3339.format(d.deletedAt)),
        ]
    }
}
