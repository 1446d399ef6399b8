import HTTPTypes

extension ParseError {
    /// The problem+json error the server answers a malformed request with.
    var httpError: HTTPError {
        switch self {
        case .badRequest(let reason):
            HTTPError(.badRequest, code: .badRequest, detail: "Malformed request: \(reason).")
        case .uriTooLong:
            HTTPError(.uriTooLong, code: .uriTooLong, detail: "The request line is over the limit.")
        case .headersTooLarge:
            HTTPError(.requestHeaderFieldsTooLarge, code: .headersTooLarge, detail: "Too many header fields, or too many header bytes.")
        case .bodyTooLarge:
            HTTPError(.contentTooLarge, code: .payloadTooLarge, detail: "The request body is over the limit.")
        case .notImplemented(let what):
            HTTPError(.notImplemented, code: .notImplemented, detail: "Not implemented: \(what).")
        case .versionNotSupported:
            HTTPError(.httpVersionNotSupported, code: .versionNotSupported, detail: "Only HTTP/1.0 and HTTP/1.1 are supported.")
        case .expectationFailed:
            HTTPError(.expectationFailed, code: .expectationFailed, detail: "Only Expect: 100-continue is supported.")
        }
    }
}
