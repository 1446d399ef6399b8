import CareSyncHTTP

/// Maps a concrete request path to its route template, so metric labels and logs never carry a
/// patient id or sync identifier and label cardinality stays bounded.
///
/// `/v1/patients/P1/weekly-reports/report-2020-W25` → `/v1/patients/{patientId}/weekly-reports/{syncIdentifier}`;
/// a path outside the API contract → `other`.
public enum RouteTemplate {
    /// The template label used for paths that match no route.
    public static let other = "other"

    /// The route template of `path` (without its query).
    public static func of(_ path: String) -> String {
        // The probes' paths, asked most often, as they are: no splitting.
        switch path {
        case "/healthz", "/readyz", "/metrics", "/openapi.json": return path
        default: break
        }
        guard path.utf8.first == UInt8(ascii: "/") else { return other }
        let trimmed = path.utf8.firstIndex(of: UInt8(ascii: "?")).map { path[..<$0] } ?? path[...]
        var segments = PathSegments.of(trimmed)[...]
        if segments.count > 1, segments.last == "" { segments = segments.dropLast() }
        switch segments.count {
        case 1 where ["healthz", "readyz", "metrics", "openapi.json"].contains(segments.first!):
            return "/" + segments.first!
        case 2... where segments.first == "v1":
            return v1(segments.dropFirst())
        default:
            return other
        }
    }

    /// Templates under `/v1`.
    private static func v1(_ segments: ArraySlice<Substring>) -> String {
        guard segments.first == "patients" else {
            let known: Set<Substring> = ["admin", "patients", "care-teams", "tokens", "audit", "types"]
            guard let first = segments.first, known.contains(first) else { return other }
            // Admin resources: keep the collection names, replace identifiers.
            var template = "/v1"
            for (index, segment) in segments.enumerated() {
                template += index % 2 == 0 && known.contains(segment) || index == 0 ? "/\(segment)" : "/{id}"
            }
            return template
        }
        // The patients' routes as literals: the log line of every request names one, and a literal costs nothing.
        let rest = segments.dropFirst(2)
        guard let resource = rest.first else { return segments.count == 1 ? "/v1/patients" : "/v1/patients/{patientId}" }
        let after = rest.dropFirst()
        switch resource {
        case "samples" where after.isEmpty: return "/v1/patients/{patientId}/samples"
        case "samples" where after.count == 1 && after.first == "delete": return "/v1/patients/{patientId}/samples/delete"
        case "changes" where after.isEmpty: return "/v1/patients/{patientId}/changes"
        case "statistics" where after.isEmpty: return "/v1/patients/{patientId}/statistics"
        case "weekly-reports" where after.isEmpty: return "/v1/patients/{patientId}/weekly-reports"
        case "weekly-reports": return "/v1/patients/{patientId}/weekly-reports/{syncIdentifier}"
        default: return other
        }
    }
}
