import Foundation
import CareSyncClient

/// Maps export records to CareSync samples with the server's type catalogue.
///
/// Types: the HealthKit identifier without its prefix (`HKQuantityTypeIdentifierStepCount` → `stepCount`).
/// Units: HealthKit unit strings, which the server reads as they are. Category values: the name after
/// `HKCategoryValue<Type>` (`…SleepAnalysisAsleepCore` → `asleepCore`), looked up in the catalogue.
/// Sync identity: `HKMetadataKeySyncIdentifier`/`HKMetadataKeySyncVersion` when present, otherwise
/// an identifier derived from the record's source, type, dates, value and unit (version 1), so the
/// same record imported again is `ignored`.
public struct RecordMapper: Sendable {
    /// Why a record was not mapped.
    public enum Refusal: Error, Hashable, Sendable {
        /// A type CareSync does not know.
        case unknownType(String)
        /// A value, date or category name that could not be read.
        case unreadable(String)
    }

    /// The catalogue by lower-cased identifier (`HKQuantityTypeIdentifierVO2Max` is `vo2Max`).
    private let catalogue: [String: TypeInfo]

    /// A mapper over `types` (from `GET /v1/types`).
    public init(types: [TypeInfo]) {
        catalogue = Dictionary(types.map { ($0.identifier.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The CareSync type of a HealthKit identifier.
    public static func typeName(_ identifier: String) -> String {
        for prefix in ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKDataTypeIdentifier"] where identifier.hasPrefix(prefix) {
            return lowerFirst(String(identifier.dropFirst(prefix.count)))
        }
        return identifier
    }

    /// The sample for `record`, or why not.
    public func sample(_ record: HealthRecord) -> Result<SampleDraft, Refusal> {
        guard let info = catalogue[Self.typeName(record.type).lowercased()] else { return .failure(.unknownType(record.type)) }
        let type = info.identifier
        guard let start = Self.date(record.startDate), let end = Self.date(record.endDate) else {
            return .failure(.unreadable("dates of \(record.type)"))
        }
        let value: Double
        var unit: String?
        if info.kind == "category" {
            guard let number = categoryValue(record.value ?? "", type: type, info: info) else {
                return .failure(.unreadable("category value \(record.value ?? "") of \(record.type)"))
            }
            value = Double(number)
        } else {
            guard let number = record.value.flatMap(Double.init), number.isFinite else {
                return .failure(.unreadable("value of \(record.type)"))
            }
            value = number
            unit = record.unit ?? info.canonicalUnit
        }
        var metadata: [String: MetadataValue] = ["sourceName": .string(record.sourceName)]
        if let entered = record.metadata["HKWasUserEntered"] { metadata["wasUserEntered"] = .bool(entered == "1" || entered == "true") }
        let syncIdentifier: String
        let syncVersion: Int
        if let given = record.metadata["HKMetadataKeySyncIdentifier"], !given.isEmpty,
           let version = record.metadata["HKMetadataKeySyncVersion"].flatMap({ Int($0) }), version >= 0 {
            syncIdentifier = given
            syncVersion = version
        } else {
            syncIdentifier = "export-" + Self.digest([record.sourceName, record.type, record.startDate, record.endDate,
                                                      record.value ?? "", record.unit ?? ""])
            syncVersion = 1
        }
        return .success(SampleDraft(type: type, value: value, unit: unit, start: start, end: max(end, start),
                                    syncIdentifier: syncIdentifier, syncVersion: syncVersion, metadata: metadata))
    }

    private func categoryValue(_ text: String, type: String, info: TypeInfo) -> Int? {
        if let number = Int(text) { return number }
        let prefix = "HKCategoryValue" + Self.upperFirst(type)
        let name = text.hasPrefix(prefix) ? Self.lowerFirst(String(text.dropFirst(prefix.count)))
            : text.hasPrefix("HKCategoryValue") ? Self.lowerFirst(String(text.dropFirst("HKCategoryValue".count))) : text
        if name == "notApplicable" { return 0 }
        return info.allowedValues?.first { $0.name == name }?.value
    }

    /// An export date, `2020-06-16 10:00:00 -0700`.
    public static func date(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 3, parts[2].count == 5 else { return Instant.parse(text) }
        let zone = parts[2]
        return Instant.parse("\(parts[0])T\(parts[1])\(zone.prefix(3)):\(zone.suffix(2))")
    }

    /// A stable 128-bit digest (two FNV-1a 64-bit hashes) of `fields`, as 32 hex digits.
    static func digest(_ fields: [String]) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x6c62_272e_07bb_0142
        for byte in fields.joined(separator: "\u{1F}").utf8 {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = b &+ (b >> 29)
        }
        return String(format: "%016llx%016llx", a, b)
    }

    static func lowerFirst(_ s: String) -> String { s.prefix(1).lowercased() + s.dropFirst() }
    static func upperFirst(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }
}
