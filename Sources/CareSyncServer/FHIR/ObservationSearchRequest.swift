import CareSyncCore
import CareSyncHTTP

/// The query of `GET /fhir/R4/Observation`, checked: the search, and the parameters its links repeat.
struct ObservationSearchRequest: Sendable {
    /// The parameters this server understands; `_format` is accepted for JSON only.
    static let known: Set<String> = ["patient", "code", "date", "_lastUpdated", "_count", "_sort", "_cursor", "_format"]

    /// The search.
    var query: ObservationQuery
    /// The understood parameters as sent, in order (unknown ones left out, as FHIR's lenient handling asks).
    var understood: [QueryItem]

    /// Parses the query; unknown parameters are 400 under `Prefer: handling=strict`, else ignored.
    static func parse(_ request: Request, defaultCount: Int, maxCount: Int) throws(FHIRError) -> ObservationSearchRequest {
        let strict = isStrict(request.header("Prefer"))
        var understood: [QueryItem] = []
        for item in request.head.query {
            if known.contains(item.name) { understood.append(item); continue }
            guard strict else { continue }
            throw .notSupported("Unknown or unsupported search parameter '\(item.name)' (Prefer: handling=strict); this server supports "
                                + known.sorted().joined(separator: ", ") + ".")
        }
        func values(_ name: String) -> [String] { understood.filter { $0.name == name }.map { $0.value ?? "" } }
        func single(_ name: String) throws(FHIRError) -> String? {
            let all = values(name)
            guard all.count <= 1 else { throw .invalid("'\(name)' may be given once.") }
            return all.first
        }
        guard let patientText = try single("patient") else { throw .invalid("'patient' is required: search one patient's Observations.") }
        let patient = patientText.hasPrefix("Patient/") ? String(patientText.dropFirst(8)) : patientText
        guard PathID.isValid(patient, name: "patientId") else {
            throw .notFound("No such patient: a patient id is 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'.")
        }
        var count = defaultCount
        if let text = try single("_count") {
            guard let n = Int(text), (1...maxCount).contains(n) else { throw .invalid("'_count' must be an integer from 1 to \(maxCount).") }
            count = n
        }
        var query = ObservationQuery(patient: patient, count: count)
        if let sort = try single("_sort") {
            guard sort == "date" || sort == "-date" else { throw .invalid("'_sort' must be 'date' or '-date'.") }
            query.descending = sort == "-date"
        }
        if let format = try single("_format"), !["json", "application/json", "application/fhir+json"].contains(format) {
            throw .invalid("'_format' must be json: this server writes FHIR JSON only.")
        }
        for text in values("code") {
            var tokens: [FHIRTokenParameter] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let token = FHIRTokenParameter(String(part)) else {
                    throw .invalid("'code' must be a comma list of system|code, code, |code or system| (got '\(text)').")
                }
                tokens.append(token)
            }
            query.codes.append(tokens)
        }
        for text in values("date") {
            guard let date = FHIRDateParameter(text) else {
                throw .invalid("'date' must be [eq|ne|lt|gt|le|ge] and YYYY, YYYY-MM, YYYY-MM-DD or a date-time with an offset or Z (got '\(text)').")
            }
            query.dates.append(date)
        }
        for text in values("_lastUpdated") {
            guard let date = FHIRDateParameter(text) else {
                throw .invalid("'_lastUpdated' must be [eq|ne|lt|gt|le|ge] and YYYY, YYYY-MM, YYYY-MM-DD or a date-time with an offset or Z (got '\(text)').")
            }
            query.lastUpdated.append(date)
        }
        try checkDailyTotals(query)
        if let cursor = try single("_cursor") {
            if query.asksForDailyTotals {
                guard let day = CalendarDay(parsing: cursor) else { throw .invalid("'_cursor' is malformed: use the next link as given.") }
                query.dayCursor = day
            } else {
                guard let c = ObservationCursor(text: cursor) else { throw .invalid("'_cursor' is malformed: use the next link as given.") }
                query.cursor = c
            }
        }
        return ObservationSearchRequest(query: query, understood: understood)
    }

    /// Refuses what a daily-total search cannot answer: codes that match samples too, and `_lastUpdated` (docs/fhir.md).
    static func checkDailyTotals(_ query: ObservationQuery) throws(FHIRError) {
        guard query.asksForDailyTotals else { return }
        if let types = query.types, !types.isEmpty {
            throw .notSupported("'code' asks for daily step totals (41950-7) and for stored samples at once: search them separately.")
        }
        if !query.lastUpdated.isEmpty {
            throw .notSupported("'_lastUpdated' does not apply to daily step totals (41950-7): they are derived and have no write time.")
        }
    }

    /// Whether `Prefer` asks for strict handling (`handling=strict`); lenient is the default.
    static func isStrict(_ prefer: String?) -> Bool {
        guard let prefer else { return false }
        return prefer.split(whereSeparator: { $0 == "," || $0 == ";" }).contains { part in
            part.trimmingSpaces().lowercased().replacingOccurrences(of: " ", with: "") == "handling=strict"
        }
    }

    /// The absolute URL of this search with the understood parameters, `_cursor` replaced by `cursor`'s text when given.
    func link(base: String, cursor: String?) -> String {
        var items = understood
        if let cursor {
            items.removeAll { $0.name == "_cursor" }
            if !items.contains(where: { $0.name == "_count" }) { items.append(QueryItem(name: "_count", value: String(query.count))) }
            items.append(QueryItem(name: "_cursor", value: cursor))
        }
        let text = items.map { "\(Self.encode($0.name))=\(Self.encode($0.value ?? ""))" }.joined(separator: "&")
        return "\(base)/Observation" + (text.isEmpty ? "" : "?" + text)
    }

    /// Percent-encodes all but RFC 3986's unreserved characters and the comma.
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || "-._~,".contains(c) {
                out.append(c)
            } else {
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
