import CareSyncHTTP

/// Enrolment links: `<public origin>/enrol#<code>`. The code rides in the fragment, which browsers and proxies never
/// send to a server, so it reaches no access log; the device app reads it from the link it scanned.
enum EnrolmentLink {
    /// The path of the enrolment page.
    static let path = "/enrol"

    /// The origin links start with: the configured public URL, else `http://` and the request's `Host` (400 without one).
    static func origin(of request: Request, configured: String?) throws -> String {
        if let configured { return configured.hasSuffix("/") ? String(configured.dropLast()) : configured }
        guard let host = request.header("Host"), FHIRBaseURL.isHost(host) else {
            throw HTTPError(.badRequest, code: .badRequest,
                            detail: "Enrolment links are absolute: send a Host header naming this server, or configure enrolment.publicUrl.")
        }
        return "http://\(host)"
    }

    /// The link of `code` under `origin`.
    static func url(origin: String, code: String) -> String { "\(origin)\(path)#\(code)" }
}
