/// How one catalogue type appears as a FHIR Observation: its codes, category and unit (docs/fhir.md).
public struct ObservationCode: Sendable {
    /// FHIR's observation categories CareSync uses.
    public enum Category: String, Sendable {
        /// The R4 vital-signs profile's category.
        case vitalSigns = "vital-signs"
        /// Bodily activity (steps, distances, exercise).
        case activity

        /// The category's display text in FHIR's observation-category code system.
        public var display: String { self == .vitalSigns ? "Vital Signs" : "Activity" }
    }

    /// The sample type.
    public var type: SampleType
    /// The standard codes (LOINC), first the one the R4 vital-signs profile names; empty when there is none.
    public var standard: [FHIRCoding]
    /// The category, when one applies.
    public var category: Category?
    /// The quantity unit; nil for category types (their value is a `valueCodeableConcept`) and correlations.
    public var unit: UCUMUnit?
    /// A correlation's components as (type, code, unit), in stored order; empty otherwise.
    public var components: [(type: SampleType, coding: FHIRCoding, unit: UCUMUnit)]

    /// The CareSync coding every Observation carries beside any standard one: the catalogue identifier.
    public var caresync: FHIRCoding {
        FHIRCoding(system: FHIRSystem.sampleType, code: type.rawValue, display: type.rawValue)
    }

    /// `Observation.code.coding`: the standard codes, then the CareSync one.
    public var codings: [FHIRCoding] { standard + [caresync] }

    /// The coding of a category value of this type (`sleepAnalysis.asleepREM`), or nil for a value the type does not take.
    public func categoryValue(_ value: Int) -> FHIRCoding? {
        guard let named = type.definition.values.first(where: { $0.value == value }) else { return nil }
        return FHIRCoding(system: FHIRSystem.categoryValue, code: "\(type.rawValue).\(named.name)", display: named.name)
    }
}
