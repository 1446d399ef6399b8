import Foundation
import CareSyncCore

/// Samples and deleted objects on the wire: decoding a client's draft with every problem named,
/// and encoding stored samples in the canonical or a requested unit.
public enum SampleWire {
    /// What `decode` reads besides the common fields.
    public struct Options: Sendable {
        /// Whether `uuid`, `syncIdentifier` and `syncVersion` may be given (not inside weekly reports).
        public var allowsIdentity = true
        /// The caller's source; a sample naming another one is refused.
        public var callerSource: String
        /// Options for a caller with `callerSource`.
        public init(allowsIdentity: Bool = true, callerSource: String) {
            self.allowsIdentity = allowsIdentity; self.callerSource = callerSource
        }
    }

    /// Validates one sample: JSON kinds here, HealthKit's rules in `SampleValidator`; appends every
    /// problem with `index` and returns nil when there is any.
    public static func decode(_ value: JSONValue, index: Int, options: Options,
                              problems: inout [ValidationProblem]) -> SampleInput? {
        guard let draft = draft(value, index: index, options: options, problems: &problems) else { return nil }
        return validate(draft, index: index, problems: &problems)
    }

    /// Runs `SampleValidator` on a draft, leaving out its problems on fields that already have a JSON-kind problem.
    static func validate(_ draft: Draft, index: Int, problems: inout [ValidationProblem]) -> SampleInput? {
        var ruleProblems: [ValidationProblem] = []
        let input = SampleValidator.validate(draft.sample, index: index, problems: &ruleProblems)
        problems += ruleProblems.filter { !draft.badFields.contains($0.field) }
        return draft.badFields.isEmpty ? input : nil
    }

    /// A draft decoded from JSON, with the fields whose JSON kind was wrong.
    struct Draft {
        var sample = SampleDraft()
        var badFields: Set<String> = []
    }

    /// Reads a sample object into a draft; JSON-kind problems are appended and their fields remembered.
    static func draft(_ value: JSONValue, index: Int, options: Options, problems: inout [ValidationProblem]) -> Draft? {
        guard let o = value.objectValue else {
            problems.append(ValidationProblem(index: index, field: "", message: "a sample must be a JSON object, not \(value.kindName)"))
            return nil
        }
        var d = Draft()
        func bad(_ field: String, _ message: String) {
            d.badFields.insert(field)
            problems.append(ValidationProblem(index: index, field: field, message: message))
        }
        func string(_ field: String) -> String? {
            switch o[field] {
            case nil, .null?: return nil
            case .string(let s)?: return s
            case let other?: bad(field, "must be a string, not \(other.kindName)"); return nil
            }
        }
        d.sample.type = string("type")
        d.sample.unit = string("unit")
        d.sample.start = string("start")
        d.sample.end = string("end")
        switch o["value"] {
        case nil, .null?: break
        case let n? where n.numberValue != nil: d.sample.value = n.numberValue
        case let other?: bad("value", "must be a number, not \(other.kindName)")
        }
        switch o["components"] {
        case nil, .null?: break
        case .object(let given)?:
            var components: [String: Double] = [:]
            for (key, v) in given {
                if let n = v.numberValue { components[key] = n } else { bad("components.\(key)", "must be a number, not \(v.kindName)") }
            }
            d.sample.components = components
        case let other?: bad("components", "must be an object, not \(other.kindName)")
        }
        switch o["componentUnits"] {
        case nil, .null?: break
        case .object(let given)?:
            var units: [String: String] = [:]
            for (key, v) in given {
                if case .string(let s) = v { units[key] = s } else { bad("componentUnits.\(key)", "must be a string, not \(v.kindName)") }
            }
            d.sample.componentUnits = units
        case let other?: bad("componentUnits", "must be an object, not \(other.kindName)")
        }
        let uuid = string("uuid"), syncIdentifier = string("syncIdentifier")
        var syncVersion: Int64?
        switch o["syncVersion"] {
        case nil, .null?: break
        case let n? where n.numberValue != nil:
            if let v = n.integerValue { syncVersion = v } else { bad("syncVersion", "must be an integer in the 64-bit signed range") }
        case let other?: bad("syncVersion", "must be an integer, not \(other.kindName)")
        }
        if options.allowsIdentity {
            d.sample.uuid = uuid; d.sample.syncIdentifier = syncIdentifier; d.sample.syncVersion = syncVersion
        } else {
            for (field, present) in [("uuid", uuid != nil), ("syncIdentifier", syncIdentifier != nil), ("syncVersion", syncVersion != nil)] where present {
                bad(field, "is set by the report; leave it out")
            }
        }
        if let source = string("source"), source != options.callerSource {
            bad("source", "is stamped from the caller's token; a client cannot write as another source")
        }
        switch o["metadata"] {
        case nil, .null?: break
        case .object(let m)?:
            var metadata: [String: MetadataValue] = [:]
            for (key, v) in m {
                switch v {
                case .string(let s): metadata[key] = .string(s)
                case .number(let n): metadata[key] = .number(n)
                case .integer(let n): metadata[key] = .number(Double(n))
                case .bool(let b): metadata[key] = .bool(b)
                default: bad("metadata.\(key)", "must be a string, number or boolean, not \(v.kindName)")
                }
            }
            d.sample.metadata = metadata
        case let other?: bad("metadata", "must be an object, not \(other.kindName)")
        }
        return d
    }

    /// A stored sample as JSON, its value in `unit` when given and it fits the type, else the canonical unit.
    /// A correlation adds `components` (each component's value, same unit); its `value` repeats the first. A food
    /// adds `components` in each component type's canonical unit and those units as `componentUnits`; its `value`
    /// is its number of components, without `unit`.
    public static func encode(_ s: Sample, unit requested: HealthUnit? = nil) -> JSONValue {
        var o: [String: JSONValue] = [
            "uuid": .string(s.uuid.uuidString), "type": .string(s.type.rawValue),
            "start": .string(RFC3339.format(s.start)), "end": .string(RFC3339.format(s.end)),
            "syncIdentifier": .optional(s.syncIdentifier), "syncVersion": .optional(s.syncVersion),
            "source": .string(s.source), "metadata": encode(s.metadata),
        ]
        if let canonical = s.type.canonicalUnit, let unit = s.type.answerUnit(requested) {
            o["value"] = .number(canonical.convert(s.value, to: unit))
            o["unit"] = .string(unit.symbol)
            if s.type.kind == .correlation {
                o["components"] = .object(Dictionary(uniqueKeysWithValues: s.componentValues.map {
                    ($0.type.rawValue, JSONValue.number(canonical.convert($0.value, to: unit)))
                }))
            }
        } else {
            o["value"] = .number(s.value)
        }
        if s.type.definition.hasComponentSet {
            let values = s.componentValues
            o["components"] = .object(Dictionary(uniqueKeysWithValues: values.map { ($0.type.rawValue, JSONValue.number($0.value)) }))
            o["componentUnits"] = .object(Dictionary(uniqueKeysWithValues: values.map {
                ($0.type.rawValue, JSONValue.string($0.type.canonicalUnit?.symbol ?? ""))
            }))
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
