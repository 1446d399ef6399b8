import Foundation
import CareSyncClient

extension RecordMapper {
    static let bloodPressure = "HKCorrelationTypeIdentifierBloodPressure"
    static let food = "HKCorrelationTypeIdentifierFood"

    /// The samples of a correlation, or why not, one result per sample.
    ///
    /// Blood pressure: one `bloodPressure` sample with `components` (a correlation missing one of its two
    /// readings gives the reading it has as a single sample). Food, which the server's catalogue leaves out:
    /// each nested dietary record is its own sample, carrying `foodCorrelation` (the correlation's stable id)
    /// and the correlation's metadata (`HKFoodType`, `HKMetadataKeyMeal` …). Any other type is unknown.
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

    private func food(_ correlation: HealthCorrelation, id: String) -> [Result<MappedSample, Refusal>] {
        return correlation.records.map { record in
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
