import CareSyncCore
import CareSyncHTTP

/// The parameters of a `$export` kick-off, checked (docs/fhir.md, "Bulk export"): `Prefer: respond-async` is
/// required; `_since`, `_type` and `_outputFormat` are understood; other parameters follow `Prefer: handling`.
struct ExportKickoff: Sendable {
    /// The parameters this server understands.
    static let known: Set<String> = ["_since", "_type", "_outputFormat"]
    /// The NDJSON names `_outputFormat` accepts (the Bulk Data specification's three).
    static let formats: Set<String> = ["application/fhir+ndjson", "application/ndjson", "ndjson"]

    /// What `_since` asked for.
    var since: ExportSince
    /// Whether Observations are asked for (`_type` absent or naming `Observation`).
    var observations: Bool

    /// Parses and checks the kick-off's headers and query.
    static func parse(_ request: Request, anchors: AnchorWire) throws(FHIRError) -> ExportKickoff {
        guard isAsync(request.header("Prefer")) else {
            throw .invalid("A bulk export runs asynchronously: send 'Prefer: respond-async'.")
        }
        let strict = ObservationSearchRequest.isStrict(request.header("Prefer"))
        for item in request.head.query where !known.contains(item.name) && strict {
            throw .notSupported("Unknown or unsupported $export parameter '\(item.name)' (Prefer: handling=strict); this server supports "
                                + known.sorted().joined(separator: ", ") + ".")
        }
        func single(_ name: String) throws(FHIRError) -> String? {
            let all = request.head.query.filter { $0.name == name }
            guard all.count <= 1 else { throw .invalid("'\(name)' may be given once.") }
            return all.first.map { $0.value ?? "" }
        }
        if let format = try single("_outputFormat"), !formats.contains(format) {
            throw .invalid("'_outputFormat' must be application/fhir+ndjson (or application/ndjson, ndjson).")
        }
        var observations = true
        if let list = try single("_type") {
            let types = list.split(separator: ",").map { String($0.trimmingSpaces()) }
            if strict, let other = types.first(where: { $0 != "Observation" }) {
                throw .notSupported("'_type' names '\(other)': this server exports Observation resources only.")
            }
            observations = types.contains("Observation")
        }
        var since = ExportSince.none
        if let text = try single("_since") {
            guard !text.isEmpty else { throw .invalid("'_since' is empty: leave it out to export everything.") }
            since = try ExportSince.parse(text, anchors: anchors)
        }
        return ExportKickoff(since: since, observations: observations)
    }

    /// Whether `Prefer` asks for `respond-async`.
    static func isAsync(_ prefer: String?) -> Bool {
        guard let prefer else { return false }
        return prefer.split(whereSeparator: { $0 == "," || $0 == ";" }).contains { $0.trimmingSpaces().lowercased() == "respond-async" }
    }
}
