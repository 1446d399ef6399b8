import Foundation
import CareSyncClient

extension RecordMapper {
    static let bloodPressure = "HKCorrelationTypeIdentifierBloodPressure"
    static let food = "HKCorrelationTypeIdentifierFood"

    /// The samples of a correlation, or why not, one result per sample.
    ///
    /// Blood pressure: one `bloodPressure` sample with `components` (a correlation missing one of its two
    /// readings gives the reading it has as a single sample). Food: one `food` sample whose `components` are its
    /// dietary records, each in its own unit (`componentUnits`), with the correlation's metadata (`HKFoodType`,
    /// `HKMetadataKeyMeal` …) and the food's stable id as identity. Any other type is unknown.
    /// `foodID` names a food (``ExportIdentity/foodID(_:)``; by default ``foodCorrelationID(_:)``).
    public func samples(_ correlation: HealthCorrelation, foodID: String? = nil) -> [Result<MappedSample, Refusal>] {
        switch correlation.type {
        case Self.bloodPressure: return pressure(correlation)
        case Self.food: return food(correlation, id: foodID ?? Self.foodCorrelationID(correlation))
        default: return [.failure(.unknownType(correlation.type))]
        }
    }

    private func pressure(_ correlation: HealthCorrelation) -> [Result<MappedSample, Refusal>] {
        let systolic = correlation.records.first { $0.type == "HKQuantityTypeIdentifierBloodPressureSystolic" }
        let diastolic = correlation.records.first { $0.type == "HKQuantityTypeIdentifierBloodPressureDiastolic" }
        guard let systolic, let diastolic, correlation.records.count == 2 else { return correlation.records.map { sample($0) } }
        guard let info = catalogue["bloodpressure"] else { return [.failure(.unknownType(correlation.type))] }
        guard let start = Self.date(correlation.startDate), let end = Self.date(correlation.endDate) else {
            return [.failure(.unreadable("dates of \(correlation.type)"))]
        }
        guard let high = systolic.value.flatMap(Double.init), high.isFinite,
              let low = diastolic.value.flatMap(Double.init), low.isFinite else {
            return [.failure(.unreadable("values of \(correlation.type)"))]
        }
        guard systolic.unit == diastolic.unit else { return [.failure(.unreadable("units of \(correlation.type)"))] }
        var metadata = ExportMetadata()
        let entries = correlation.metadata.merging(systolic.metadata) { own, _ in own }.merging(diastolic.metadata) { own, _ in own }
        metadata.add(sourceName: correlation.sourceName, device: correlation.device ?? systolic.device, entries: entries)
        let draft = SampleDraft.bloodPressure(systolic: high, diastolic: low, unit: systolic.unit ?? info.canonicalUnit ?? "mmHg",
                                              start: start, end: max(end, start), metadata: metadata.values)
        let given = Self.given(correlation.metadata)
        return [.success(MappedSample(
            draft: draft, sourceName: correlation.sourceName,
            identity: [correlation.sourceName, correlation.type, Self.instant(correlation.startDate), Self.instant(correlation.endDate),
                       (correlation.device ?? systolic.device).map(ExportMetadata.device) ?? ""],
            addOnlyIdentity: [correlation.sourceName, correlation.type, correlation.startDate, correlation.endDate,
                              systolic.value ?? "", diastolic.value ?? "", systolic.unit ?? ""],
            givenIdentifier: given?.0, givenVersion: given?.1, droppedMetadata: metadata.dropped))]
    }

    /// One `food` sample of the dietary records of `correlation`, each in its unit, with the correlation's metadata
    /// and its stable id as identity. A correlation that cannot be one food (a record of a type that is not one of
    /// food's components, a type twice, an unreadable value) gives each record as its own sample, as agents before
    /// the server's `food` did, so nothing is dropped.
    private func food(_ correlation: HealthCorrelation, id: String) -> [Result<MappedSample, Refusal>] {
        guard let info = catalogue["food"], let allowed = info.components.map(Set.init) else { return separately(correlation, id: id) }
        var components: [String: Double] = [:], units: [String: String] = [:]
        for record in correlation.records {
            guard let part = catalogue[Self.typeName(record.type).lowercased()], allowed.contains(part.identifier),
                  components[part.identifier] == nil, let unit = record.unit ?? part.canonicalUnit,
                  let value = record.value.flatMap(Double.init), value.isFinite else { return separately(correlation, id: id) }
            components[part.identifier] = value
            units[part.identifier] = unit
        }
        guard !components.isEmpty else { return [] }
        guard let start = Self.date(correlation.startDate), let end = Self.date(correlation.endDate) else {
            return [.failure(.unreadable("dates of \(correlation.type)"))]
        }
        var metadata = ExportMetadata()
        let entries = correlation.records.reduce(correlation.metadata) { all, record in all.merging(record.metadata) { own, _ in own } }
        metadata.add(sourceName: correlation.sourceName, device: correlation.device ?? correlation.records.lazy.compactMap(\.device).first,
                     entries: entries)
        let draft = SampleDraft.food(components, units: units, start: start, end: max(end, start), metadata: metadata.values)
        let given = Self.given(correlation.metadata)
        let parts = components.keys.sorted().map { "\($0)=\(components[$0]!) \(units[$0]!)" }
        return [.success(MappedSample(
            draft: draft, sourceName: correlation.sourceName, identity: [id],
            addOnlyIdentity: [correlation.sourceName, correlation.type, correlation.startDate, correlation.endDate,
                              correlation.metadata["HKFoodType"] ?? ""] + parts,
            givenIdentifier: given?.0, givenVersion: given?.1, droppedMetadata: metadata.dropped))]
    }

    /// Each dietary record of a food as its own sample carrying `foodCorrelation` (the correlation's stable id)
    /// and the correlation's metadata: what a food that cannot be one `food` sample becomes.
    private func separately(_ correlation: HealthCorrelation, id: String) -> [Result<MappedSample, Refusal>] {
        correlation.records.map { record in
            var metadata = ExportMetadata()
            metadata.add(sourceName: record.sourceName, device: record.device ?? correlation.device,
                         own: ["foodCorrelation": .string(id)], entries: record.metadata)
            metadata.add(entries: correlation.metadata)
            var component = record
            if component.device == nil { component.device = correlation.device }
            return sample(component, metadata: metadata, context: [id])
        }
    }

    /// A food correlation's stable id: its `HKMetadataKeySyncIdentifier`, else `food-` and a digest of its
    /// source, dates, device and `HKFoodType` (the same food logged again in another export keeps its id).
    static func foodCorrelationID(_ correlation: HealthCorrelation) -> String {
        if let given = given(correlation.metadata) { return given.0 }
        return "food-" + ExportDigest(fields: [correlation.sourceName, correlation.type,
                                               instant(correlation.startDate), instant(correlation.endDate),
                                               correlation.device.map(ExportMetadata.device) ?? "",
                                               correlation.metadata["HKFoodType"] ?? ""]).hex
    }
}
