import Foundation

/// Turns sample drafts into canonical `SampleInput`s, collecting every problem with its index and field.
///
/// Nothing is partial: `validate(_:)` returns all inputs or throws `SyncError.validationFailed` with every
/// problem of every draft, so a 422 names each bad index at once.
public enum SampleValidator {
    /// The most metadata keys one sample may carry.
    public static let maxMetadataKeys = 64
    /// The largest metadata, in bytes of its compact JSON form.
    public static let maxMetadataBytes = 4096
    /// The longest sync identifier, in UTF-8 bytes.
    public static let maxSyncIdentifierBytes = 512
    /// The message for a date that is not RFC 3339 with an offset.
    static let dateMessage = "must be an RFC 3339 date-time with an offset or Z, such as 2020-06-18T09:30:00Z"

    /// Validates a whole batch; throws `SyncError.validationFailed` listing every problem.
    public static func validate(_ drafts: [SampleDraft]) throws -> [SampleInput] {
        var problems: [ValidationProblem] = []
        var inputs: [SampleInput] = []
        for (index, draft) in drafts.enumerated() {
            if let input = validate(draft, index: index, problems: &problems) { inputs.append(input) }
        }
        guard problems.isEmpty else { throw SyncError.validationFailed(problems) }
        return inputs
    }

    /// Validates one draft, appending its problems; returns the input only when it has none.
    public static func validate(_ draft: SampleDraft, index: Int?, problems: inout [ValidationProblem]) -> SampleInput? {
        let before = problems.count
        func problem(_ field: String, _ message: String) {
            problems.append(ValidationProblem(index: index, field: field, message: message))
        }

        var uuid: UUID?
        if let text = draft.uuid {
            uuid = UUID(uuidString: text)
            if uuid == nil { problem("uuid", "must be a UUID, such as 5E0B6B4C-7A0E-4D1B-9C55-2F1E3B9A0C11") }
        }

        var type: SampleType?
        var unit: HealthUnit?
        if let name = draft.type {
            type = SampleType(identifier: name)
            if type == nil { problem("type", "unknown type '\(name)'") }
        } else {
            problem("type", "is required")
        }
        if let type, type.definition.hasComponentSet {
            if let given = draft.unit {
                problem("unit", "is not taken by '\(type.rawValue)': give each component's unit in componentUnits, got '\(given)'")
            }
        } else if let type {
            switch type.resolveUnit(draft.unit) {
            case let .resolved(resolved): unit = resolved
            case let .problem(message): problem("unit", message)
            }
        }

        var value: Double?
        var secondValue: Double?
        var components: [SampleType: Double] = [:]
        if let type, type.definition.hasComponentSet {
            if let set = componentSet(draft, type: type, index: index, problems: &problems) {
                components = set
                value = Double(set.count)
            }
        } else if let type, type.kind == .correlation {
            if let pair = correlationValues(draft, type: type, unit: unit, index: index, problems: &problems) {
                (value, secondValue) = pair
            }
        } else if let raw = draft.value {
            if !raw.isFinite {
                problem("value", "must be a finite number")
            } else if let type {
                let converted = type.canonicalValue(raw, from: unit)
                switch type.kind {
                case .quantity where unit != nil && type.definition.range.map { !$0.contains(converted) } ?? false:
                    problem("value", rangeMessage(type))
                case .category where !type.definition.values.contains(where: { Double($0.value) == raw }):
                    problem("value", "must be one of " + type.definition.values.map { "\($0.value) (\($0.name))" }.joined(separator: ", ")
                            + " for category type '\(type.rawValue)'")
                default:
                    if converted.isFinite { value = converted } else { problem("value", "is out of range once converted") }
                }
            }
        } else {
            problem("value", "is required")
        }
        if draft.components != nil, let type, type.kind != .correlation {
            problem("components", "only correlation types (bloodPressure, food) take components; '\(type.rawValue)' takes value")
        }
        if draft.componentUnits != nil, let type, !type.definition.hasComponentSet {
            problem("componentUnits", "only 'food' takes componentUnits; '\(type.rawValue)' takes one unit")
        }

        let start = date(draft.start, field: "start", index: index, problems: &problems)
        let end = date(draft.end, field: "end", index: index, problems: &problems)
        if let start, let end, end < start { problem("end", "must not be before start") }

        checkSyncFields(identifier: draft.syncIdentifier, version: draft.syncVersion, index: index, problems: &problems)
        checkMetadata(draft.metadata ?? [:], index: index, problems: &problems)

        guard problems.count == before, let type, let value, let start, let end else { return nil }
        return SampleInput(uuid: uuid, type: type, value: value, secondValue: secondValue, components: components,
                           start: start, end: end,
                           syncIdentifier: draft.syncIdentifier, syncVersion: draft.syncVersion,
                           metadata: draft.metadata ?? [:])
    }

    /// Why a value of `type` (or of a correlation's component type) is outside its range.
    static func rangeMessage(_ type: SampleType) -> String {
        let range = type.definition.range ?? ValueRange(minimum: nil, maximum: nil)
        let unit = type.canonicalUnit?.symbol ?? ""
        if type.canonicalUnit?.dimension == UnitDimension(.percent) {
            return "must be from 0 to 1 for type '\(type.rawValue)': HealthKit's % is a fraction, 0.97 is 97 %"
        }
        switch (range.minimum, range.maximum) {
        case let (0?, maximum?): return "must be from 0 to \(number(maximum)) \(unit) for type '\(type.rawValue)'"
        case (0?, nil): return "must not be negative for type '\(type.rawValue)'"
        case let (minimum?, maximum?):
            return "must be from \(number(minimum)) to \(number(maximum)) \(unit) for type '\(type.rawValue)'"
        case let (minimum?, nil): return "must be at least \(number(minimum)) \(unit) for type '\(type.rawValue)'"
        case let (nil, maximum?): return "must be at most \(number(maximum)) \(unit) for type '\(type.rawValue)'"
        case (nil, nil): return "is out of range for type '\(type.rawValue)'"
        }
    }

    /// A bound as people write it: 2000, not 2000.0.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// A required RFC 3339 date, or a problem.
    static func date(_ text: String?, field: String, index: Int?, problems: inout [ValidationProblem]) -> Date? {
        guard let text else {
            problems.append(ValidationProblem(index: index, field: field, message: "is required"))
            return nil
        }
        guard let date = RFC3339.parse(text) else {
            problems.append(ValidationProblem(index: index, field: field, message: dateMessage))
            return nil
        }
        return date
    }

    /// HealthKit's rule: `syncVersion` exactly when `syncIdentifier`; non-empty identifier, version ≥ 0.
    static func checkSyncFields(identifier: String?, version: Int64?, index: Int?, problems: inout [ValidationProblem]) {
        func problem(_ field: String, _ message: String) {
            problems.append(ValidationProblem(index: index, field: field, message: message))
        }
        if let identifier {
            if identifier.isEmpty { problem("syncIdentifier", "must not be empty") }
            if identifier.utf8.count > maxSyncIdentifierBytes { problem("syncIdentifier", "must be at most \(maxSyncIdentifierBytes) bytes") }
            // PostgreSQL text cannot hold U+0000 (its parameters end at a NUL): refused on every store alike.
            if identifier.utf8.contains(0) { problem("syncIdentifier", "must not contain U+0000 (NUL)") }
            if version == nil { problem("syncVersion", "is required when syncIdentifier is given") }
        } else if version != nil {
            problem("syncVersion", "is not allowed without syncIdentifier")
        }
        if let version, version < 0 { problem("syncVersion", "must not be negative") }
    }

    /// At most 64 keys and 4 KiB; numbers finite; `wasUserEntered` a boolean.
    static func checkMetadata(_ metadata: [String: MetadataValue], index: Int?, problems: inout [ValidationProblem]) {
        func problem(_ field: String, _ message: String) {
            problems.append(ValidationProblem(index: index, field: field, message: message))
        }
        if metadata.count > maxMetadataKeys { problem("metadata", "must have at most \(maxMetadataKeys) keys, has \(metadata.count)") }
        let size = metadataSize(metadata)
        if size > maxMetadataBytes { problem("metadata", "must be at most \(maxMetadataBytes) bytes, is \(size)") }
        for key in metadata.keys.sorted() {
            if key.isEmpty { problem("metadata", "keys must not be empty") }
            switch metadata[key]! {
            case let .number(number) where !number.isFinite: problem("metadata.\(key)", "must be a finite number")
            case .bool: break
            default: if key == "wasUserEntered" { problem("metadata.wasUserEntered", "must be a boolean") }
            }
        }
    }

    /// The size of the metadata's compact JSON form, in bytes (strings counted unescaped).
    public static func metadataSize(_ metadata: [String: MetadataValue]) -> Int {
        var size = 2 + max(0, metadata.count - 1)
        for (key, value) in metadata {
            size += key.utf8.count + 3
            switch value {
            case let .string(text): size += text.utf8.count + 2
            case let .number(number): size += "\(number)".utf8.count
            case let .bool(flag): size += flag ? 4 : 5
            }
        }
        return size
    }
}
