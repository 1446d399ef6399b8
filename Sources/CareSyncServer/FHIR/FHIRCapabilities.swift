/// The CapabilityStatement at `/fhir/R4/metadata`: what this FHIR endpoint serves (docs/fhir.md).
enum FHIRCapabilities {
    /// The search parameters of Observation, with FHIR's types.
    static let searchParameters: [(name: String, type: String, documentation: String)] = [
        ("patient", "reference", "Required: the patient, as `alice` or `Patient/alice`; outside the caller's reach it is 404."),
        ("code", "token", "system|code, code, |code or system|; a comma list matches any, repeated parameters all. "
         + "http://loinc.org|41950-7 (or urn:caresync:daily-total|stepCount.daily) answers derived daily step totals instead of samples."),
        ("date", "date", "The effective time, with the eq, ne, lt, gt, le, ge prefixes; dates without a time are UTC days."),
        ("_lastUpdated", "date", "When the sample was written (meta.lastUpdated), with the date prefixes; repeat it for a range."),
    ]

    /// A resource that offers only the bulk `$export` operation (FHIR Bulk Data), with what `_since` takes.
    static func exportResource(_ type: String, definition: String, _ documentation: String) -> JSONValue {
        ["type": .string(type),
         "operation": [[
             "name": "export",
             "definition": .string("http://hl7.org/fhir/uv/bulkdata/OperationDefinition/" + definition),
             "documentation": .string(documentation + " Prefer: respond-async; _since is an instant (the changes committed "
                                      + "at or after it) or the previous manifest's extension.caresyncNextSince (the changes since); "
                                      + "deletions included either way."),
         ]]]
    }

    /// The statement, with absolute `implementation.url`.
    static func statement(base: String) -> JSONValue {
        [
            "resourceType": "CapabilityStatement",
            "status": "active",
            "date": "2026-11-26",
            "publisher": "CareSync",
            "kind": "instance",
            "software": ["name": "CareSync"],
            "implementation": ["description": "CareSync FHIR R4 read-only Observations and their bulk export", "url": .string(base)],
            "fhirVersion": "4.0.1",
            "format": ["json"],
            "rest": [[
                "mode": "server",
                "documentation": "Send 'Authorization: Bearer <token>' (a CareSync API token) with every Observation request.",
                "security": ["description": "CareSync bearer tokens; the caller sees the patients in its reach and the types it may read."],
                "resource": [
                    [
                        "type": "Observation",
                        "profile": "http://hl7.org/fhir/StructureDefinition/Observation",
                        "interaction": [["code": "read"], ["code": "search-type"]],
                        "searchParam": .array(searchParameters.map {
                            ["name": .string($0.name), "type": .string($0.type), "documentation": .string($0.documentation)]
                        }),
                    ],
                    exportResource("Patient", definition: "patient-export",
                                   "Patient/{id}/$export: one patient's Observations (a device token: its own patient's copy)."),
                    exportResource("Group", definition: "group-export",
                                   "Group/{care team}/$export: the Observations of every patient of a care team of a therapist token."),
                ],
            ]],
        ]
    }
}
