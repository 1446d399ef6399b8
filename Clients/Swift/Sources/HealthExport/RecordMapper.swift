import Foundation
import CareSyncClient

/// Maps export records to CareSync samples with the server's type catalogue.
///
/// Types: the HealthKit identifier without its prefix (`HKQuantityTypeIdentifierStepCount` → `stepCount`).
/// Units: HealthKit unit strings, which the server reads as they are. Category values: the name after
/// `HKCategoryValue<Type>` (`…SleepAnalysisAsleepCore` → `asleepCore`), looked up in the catalogue.
/// Metadata: every attribute and entry the server can hold (``ExportMetadata``). Correlations: see
/// `RecordMapper+Correlation.swift`. The sync identity is given by ``ExportIdentity``.
public struct RecordMapper: Sendable {
    /// Why a record was not mapped.
    public enum Refusal: Error, Hashable, Sendable {
        /// A type CareSync does not know.
        case unknownType(String)
        /// A value, date or category name that could not be read.
        case unreadable(String)
    }

    /// The catalogue by lower-cased identifier (`HKQuantityTypeIdentifierVO2Max` is `vo2Max`).
    let catalogue: [String: TypeInfo]

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

    /// The sample for a top-level `record`, or why not.
    public func sample(_ record: HealthRecord) -> Result<MappedSample, Refusal> {
        var metadata = ExportMetadata()
        metadata.add(sourceName: record.sourceName, device: record.device, entries: record.metadata)
        return sample(record, metadata: metadata, context: [])
    }

    /// The sample for `record` with `metadata` built by the caller; `context` joins its identity.
    func sample(_ record: HealthRecord, metadata: ExportMetadata, context: [String]) -> Result<MappedSample, Refusal> {
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
        let draft = SampleDraft(type: type, value: value, unit: unit, start: start, end: max(end, start), metadata: metadata.values)
        let given = Self.given(record.metadata)
        return .success(MappedSample(draft: draft, sourceName: record.sourceName,
                                     identity: context + [record.sourceName, record.type, Self.instant(record.startDate), Self.instant(record.endDate),
                                                          record.device.map(ExportMetadata.device) ?? ""],
                                     addOnlyIdentity: [record.sourceName, record.type, record.startDate, record.endDate,
                                                       record.value ?? "", record.unit ?? ""],
                                     givenIdentifier: given?.0, givenVersion: given?.1,
                                     droppedMetadata: metadata.dropped))
    }

    /// `HKMetadataKeySyncIdentifier` and `HKMetadataKeySyncVersion`, when both are there and valid.
    static func given(_ entries: [String: String]) -> (String, Int)? {
        guard let identifier = entries["HKMetadataKeySyncIdentifier"], !identifier.isEmpty,
              let version = entries["HKMetadataKeySyncVersion"].flatMap({ Int($0) }), version >= 0 else { return nil }
        return (identifier, version)
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

    /// An export date as the UTC instant it names: the export writes dates in the exporting phone's time
    /// zone, so the same reading exported after a journey has other strings but the same instant.
    static func instant(_ text: String) -> String { date(text).map(Instant.format) ?? text }

    static func lowerFirst(_ s: String) -> String { s.prefix(1).lowercased() + s.dropFirst() }
    static func upperFirst(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }
}
