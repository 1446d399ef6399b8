import CareSyncCore
import Foundation

/// FHIR R4 JSON of Observations, search Bundles and OperationOutcomes (docs/fhir.md).
enum FHIRWire {
    /// One Observation resource.
    static func observation(_ o: FHIRObservation) -> JSONValue {
        var r: [String: JSONValue] = [
            "resourceType": "Observation",
            "id": .string(o.id),
            "status": "final",
            "code": ["coding": .array(o.codings.map(coding)), "text": .string(o.codings.last?.display ?? o.id)],
            "subject": ["reference": .string("Patient/\(o.patient)")],
            "device": ["display": .string(o.source)],
        ]
        var meta: [String: JSONValue] = [:]
        if let version = o.versionId { meta["versionId"] = .string(version) }
        if let lastUpdated = o.lastUpdated { meta["lastUpdated"] = .string(RFC3339.format(lastUpdated)) }
        if !meta.isEmpty { r["meta"] = .object(meta) }
        var identifiers: [JSONValue] = [["system": .string(FHIRSystem.uri), "value": .string(o.uuidURN)]]
        if let sync = o.syncIdentifier {
            identifiers.append(["system": .string(FHIRSystem.syncIdentifier), "value": .string(sync), "assigner": ["display": .string(o.source)]])
        }
        r["identifier"] = .array(identifiers)
        if let category = o.category {
            r["category"] = [["coding": [coding(FHIRCoding(system: FHIRSystem.observationCategory, code: category.rawValue,
                                                            display: category.display))]]]
        }
        switch o.effective {
        case .instant(let at): r["effectiveDateTime"] = .string(RFC3339.format(at))
        case .period(let start, let end): r["effectivePeriod"] = ["start": .string(RFC3339.format(start)), "end": .string(RFC3339.format(end))]
        }
        switch o.value {
        case .quantity(let q): r["valueQuantity"] = quantity(q)
        case .concept(let c): r["valueCodeableConcept"] = ["coding": [coding(c)], "text": .string(c.display)]
        case .none: break
        }
        if !o.components.isEmpty {
            r["component"] = .array(o.components.map { ["code": ["coding": [coding($0.coding)]], "valueQuantity": quantity($0.quantity)] })
        }
        if o.enteredByTherapist { r["performer"] = [["type": "Practitioner", "display": .string(o.source)]] }
        return .object(r)
    }

    /// A `searchset` Bundle: `self` and optional `next` links (absolute), the total and the page's entries.
    static func searchset(_ observations: [FHIRObservation], total: Int, base: String, selfLink: String, nextLink: String?) -> JSONValue {
        searchset(entries: observations.map { ($0.id, observation($0)) }, total: total, base: base, selfLink: selfLink, nextLink: nextLink)
    }

    /// A `searchset` Bundle of resources with their ids.
    static func searchset(entries: [(id: String, resource: JSONValue)], total: Int, base: String, selfLink: String,
                          nextLink: String?) -> JSONValue {
        var links: [JSONValue] = [["relation": "self", "url": .string(selfLink)]]
        if let nextLink { links.append(["relation": "next", "url": .string(nextLink)]) }
        return [
            "resourceType": "Bundle",
            "type": "searchset",
            "total": .exactly(Int64(total)),
            "link": .array(links),
            "entry": .array(entries.map { e in
                ["fullUrl": .string("\(base)/Observation/\(e.id)"), "resource": e.resource, "search": ["mode": "match"]]
            }),
        ]
    }

    /// An OperationOutcome with one error issue.
    static func operationOutcome(_ error: FHIRError) -> JSONValue {
        ["resourceType": "OperationOutcome",
         "issue": [["severity": "error", "code": .string(error.issue), "diagnostics": .string(error.diagnostics)]]]
    }

    /// A Coding.
    static func coding(_ c: FHIRCoding) -> JSONValue {
        ["system": .string(c.system), "code": .string(c.code), "display": .string(c.display)]
    }

    /// A Quantity in UCUM.
    static func quantity(_ q: FHIRObservation.Quantity) -> JSONValue {
        ["value": .number(q.value), "unit": .string(q.unit), "system": .string(FHIRSystem.ucum), "code": .string(q.code)]
    }
}
