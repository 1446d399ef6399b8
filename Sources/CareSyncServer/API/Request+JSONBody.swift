import CareSyncHTTP

extension Request {
    /// The body parsed as JSON: 415 for another content type, 400 for bad JSON.
    func jsonBody() throws -> JSONValue {
        if let type = header("Content-Type") {
            let media = type.split(separator: ";").first.map { $0.trimmingSpaces().lowercased() } ?? ""
            guard media == "application/json" || (media.hasPrefix("application/") && media.hasSuffix("+json")) else {
                throw HTTPError.unsupportedMediaType("Send JSON with Content-Type: application/json.")
            }
        }
        guard !body.isEmpty else { throw HTTPError.invalidJSON("The request has no body; a JSON object is required.") }
        return try JSONValue.parse(body)
    }
}
