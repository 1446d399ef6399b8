import Foundation

/// Maps stored samples to FHIR R4 Observations: a pure function of the sample (docs/fhir.md).
public enum ObservationMapper {
    /// The Observation of `sample` of `patient`; `enteredByTherapist` when its source is a therapist's (weekly reports);
    /// `lastUpdated` its write time, when known.
    public static func observation(of sample: Sample, patient: String, enteredByTherapist: Bool,
                                   lastUpdated: Date? = nil) -> FHIRObservation {
        let code = ObservationCodeTable.code(for: sample.type)
        let effective: FHIRObservation.Effective = sample.start == sample.end
            ? .instant(sample.start) : .period(start: sample.start, end: sample.end)
        var value = FHIRObservation.Value.none
        switch sample.type.kind {
        case .quantity:
            if let unit = code.unit { value = .quantity(quantity(sample.value, unit)) }
        case .category:
            let coding = code.categoryValue(Int(sample.value))
                ?? FHIRCoding(system: FHIRSystem.categoryValue, code: "\(sample.type.rawValue).\(Int(sample.value))", display: "\(Int(sample.value))")
            value = .concept(coding)
        case .correlation:
            value = .none
        }
        let components = zip(code.components, sample.componentValues).map { component, stored in
            FHIRObservation.Component(coding: component.coding, quantity: quantity(stored.value, component.unit))
        }
        return FHIRObservation(
            id: id(of: sample.uuid), versionId: sample.syncVersion.map(String.init), lastUpdated: lastUpdated, uuidURN: "urn:uuid:" + id(of: sample.uuid),
            syncIdentifier: sample.syncIdentifier, category: code.category, codings: code.codings, patient: patient,
            effective: effective, value: value, components: components, source: sample.source,
            enteredByTherapist: enteredByTherapist)
    }

    /// The Observation id of a sample: its uuid in lower case (36 characters, a valid FHIR id).
    public static func id(of uuid: UUID) -> String { uuid.uuidString.lowercased() }

    /// The sample uuid an Observation id names, or nil when it is not one CareSync gives.
    public static func uuid(ofID id: String) -> UUID? {
        guard id.utf8.count == 36, id == id.lowercased() else { return nil }
        return UUID(uuidString: id)
    }

    /// A canonical value as a quantity in `unit`.
    static func quantity(_ canonical: Double, _ unit: UCUMUnit) -> FHIRObservation.Quantity {
        FHIRObservation.Quantity(value: unit.value(fromCanonical: canonical), unit: unit.display, code: unit.code)
    }
}
