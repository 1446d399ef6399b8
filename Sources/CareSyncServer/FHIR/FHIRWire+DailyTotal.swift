import CareSyncCore

extension FHIRWire {
    /// One daily total as an Observation (docs/fhir.md "Daily step totals"): no `meta`, `identifier`, `device` or
    /// `performer`; the period is the local day with the zone's offsets, `method` says the value is derived.
    static func dailyTotal(_ t: DailyTotal) -> JSONValue {
        let category = FHIRCoding(system: FHIRSystem.observationCategory, code: ObservationCode.Category.activity.rawValue,
                                  display: ObservationCode.Category.activity.display)
        return [
            "resourceType": "Observation",
            "id": .string(t.id),
            "status": "final",
            "category": [["coding": [coding(category)]]],
            "code": ["coding": .array(DailyTotalCode.codings.map(coding)), "text": .string(DailyTotalCode.loinc.display)],
            "subject": ["reference": .string("Patient/\(t.patient)")],
            "effectivePeriod": ["start": .string(t.startText), "end": .string(t.endText)],
            "valueQuantity": quantity(t.quantity),
            "method": ["text": .string(DailyTotalCode.method)],
        ]
    }

    /// A `searchset` Bundle of daily totals.
    static func searchset(_ totals: [DailyTotal], total: Int, base: String, selfLink: String, nextLink: String?) -> JSONValue {
        searchset(entries: totals.map { ($0.id, dailyTotal($0)) }, total: total, base: base, selfLink: selfLink, nextLink: nextLink)
    }
}
