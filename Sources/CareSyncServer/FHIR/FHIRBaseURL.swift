import CareSyncHTTP

/// The absolute base of FHIR links (`http://host:port/fhir/R4`): the configured public URL, else the request's `Host`.
enum FHIRBaseURL {
    /// The path every FHIR route starts with.
    static let path = "/fhir/R4"

    /// The base for `request`; 400 when there is no public URL and the `Host` header is missing or not a host[:port].
    static func of(_ request: Request, configured: String?) throws(FHIRError) -> String {
        if let configured { return configured.hasSuffix("/") ? String(configured.dropLast()) + path : configured + path }
        guard let host = request.header("Host"), isHost(host) else {
            throw .invalid("FHIR links are absolute: send a Host header naming this server (host or host:port).")
        }
        return "http://\(host)\(path)"
    }

    /// Whether `text` is a host name, IPv4 or bracketed IPv6 address with an optional port, and nothing else.
    static func isHost(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 255 else { return false }
        return text.utf8.allSatisfy { c in
            (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 45 || c == 46 || c == 58 || c == 91 || c == 93
        }
    }
}
