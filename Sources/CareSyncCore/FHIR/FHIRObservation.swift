import Foundation

/// A sample as a FHIR R4 Observation, before it is written as JSON (the mapping of docs/fhir.md).
public struct FHIRObservation: Hashable, Sendable {
    /// When the measurement was taken: one instant, or a period.
    public enum Effective: Hashable, Sendable {
        /// `effectiveDateTime`: a sample whose start and end are the same instant.
        case instant(Date)
        /// `effectivePeriod`: a sample over an interval (steps, sleep).
        case period(start: Date, end: Date)
    }

    /// A number in a UCUM unit.
    public struct Quantity: Hashable, Sendable {
        /// The value in `code`'s unit.
        public var value: Double
        /// The human-readable unit.
        public var unit: String
        /// The UCUM code.
        public var code: String
    }

    /// The Observation's value.
    public enum Value: Hashable, Sendable {
        /// `valueQuantity`.
        case quantity(Quantity)
        /// `valueCodeableConcept`: a category sample's value.
        case concept(FHIRCoding)
        /// No value of its own: a panel whose values are its components (blood pressure).
        case none
    }

    /// One `component` of a panel.
    public struct Component: Hashable, Sendable {
        /// The component's code.
        public var coding: FHIRCoding
        /// Its value.
        public var quantity: Quantity
    }

    /// The resource id: the sample's uuid, lower case.
    public var id: String
    /// `meta.versionId`: the sync version, when the sample has one.
    public var versionId: String?
    /// `meta.lastUpdated`: when the sample was written (its commit's time, `WriteTimes`), when known.
    public var lastUpdated: Date?
    /// The sample's uuid as a URN identifier.
    public var uuidURN: String
    /// The HealthKit sync identifier, when the sample has one.
    public var syncIdentifier: String?
    /// The category, when one applies.
    public var category: ObservationCode.Category?
    /// `code.coding`: standard codes, then the CareSync code.
    public var codings: [FHIRCoding]
    /// The patient id (`subject` is `Patient/<id>`).
    public var patient: String
    /// When it was measured.
    public var effective: Effective
    /// The value.
    public var value: Value
    /// A panel's components (blood pressure); empty otherwise.
    public var components: [Component]
    /// The source that wrote it, shown as the `device`.
    public var source: String
    /// Whether a therapist entered it (a weekly report): then the source is also the `performer`.
    public var enteredByTherapist: Bool
}
