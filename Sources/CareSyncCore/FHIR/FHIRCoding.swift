/// One FHIR `Coding`: a code in a code system, with its display text.
public struct FHIRCoding: Hashable, Sendable {
    /// The code system's URI (LOINC, UCUM, a CareSync URN).
    public var system: String
    /// The code within the system.
    public var code: String
    /// Human-readable text for the code.
    public var display: String

    /// A coding from its parts.
    public init(system: String, code: String, display: String) {
        self.system = system; self.code = code; self.display = display
    }

    /// A LOINC code (https://loinc.org).
    public static func loinc(_ code: String, _ display: String) -> FHIRCoding {
        FHIRCoding(system: FHIRSystem.loinc, code: code, display: display)
    }
}

/// The code system and identifier URIs CareSync's FHIR resources use (docs/fhir.md).
public enum FHIRSystem {
    /// LOINC.
    public static let loinc = "http://loinc.org"
    /// UCUM, the units of `valueQuantity`.
    public static let ucum = "http://unitsofmeasure.org"
    /// FHIR's observation categories (vital-signs, activity).
    public static let observationCategory = "http://terminology.hl7.org/CodeSystem/observation-category"
    /// CareSync's sample types: the catalogue identifier (`stepCount`) as the code.
    public static let sampleType = "urn:caresync:sample-type"
    /// CareSync's derived daily totals (`stepCount.daily`: docs/fhir.md "Daily step totals").
    public static let dailyTotal = "urn:caresync:daily-total"
    /// CareSync's category values: `<type>.<value name>` (`sleepAnalysis.asleepREM`).
    public static let categoryValue = "urn:caresync:category-value"
    /// The identifier system of a sample's HealthKit sync identifier (unique per patient and source).
    public static let syncIdentifier = "urn:caresync:sync-identifier"
    /// The identifier system of a sample's uuid (`urn:uuid:…`), as FHIR writes URIs as identifiers.
    public static let uri = "urn:ietf:rfc:3986"
}
