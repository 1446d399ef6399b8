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
        // Cut on the UTF-8 bytes of `?` and `/` (ASCII: every cut is on a character boundary).
        let trimmed = path.utf8.firstIndex(of: UInt8(ascii: "?")).map { path[..<$0] } ?? path[...]
        let parts = trimmed.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
            .map(Substring.init)
        let segments = Array(parts.last == "" && parts.count > 1 ? parts.dropLast() : parts[...])
        switch segments.count {
        case 1 where ["healthz", "readyz", "metrics", "openapi.json"].contains(segments[0]):
            return "/" + segments[0]
        case 2... where segments[0] == "v1":
            return v1(Array(segments.dropFirst()))
        default:
            return other
        }
    }

    /// Templates under `/v1`.
    private static func v1(_ segments: [Substring]) -> String {
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
        switch segments.count {
        case 1: return "/v1/patients"
        case 2: return "/v1/patients/{patientId}"
        default:
            let resource = segments[2]
            let base = "/v1/patients/{patientId}/\(resource)"
            switch (resource, segments.count) {
            case ("samples", 3), ("changes", 3), ("statistics", 3), ("weekly-reports", 3):
                return base
            case ("samples", 4) where segments[3] == "delete":
                return base + "/delete"
            case ("weekly-reports", 4...):
                return base + "/{syncIdentifier}"
            default:
                return other
            }
        }
    }
}
