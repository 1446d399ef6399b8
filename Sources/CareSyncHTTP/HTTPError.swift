import HTTPTypes

/// An RFC 9457 problem: thrown by handlers, rendered as `application/problem+json`
/// `{"type","title","status","detail","code","errors":[{"index","field","message"}]}`.
public struct HTTPError: HTTPResponseError, Sendable, Hashable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// The machine-readable code (api.md).
    public var code: ProblemCode
    /// The problem type URI; "about:blank" unless set.
    public var type: String
    /// A short summary; defaults to the status's reason phrase.
    public var title: String
    /// A human-readable explanation of this occurrence.
    public var detail: String?
    /// Per-item, per-field errors (validation).
    public var errors: [FieldError]
    /// Extra header fields to send (`Allow`, `WWW-Authenticate`, `Retry-After` …).
    public var headers: HTTPFields

    /// Creates a problem.
    public init(
        _ status: HTTPResponse.Status, code: ProblemCode, title: String? = nil, detail: String? = nil,
        errors: [FieldError] = [], headers: HTTPFields = [:], type: String = "about:blank"
    ) {
        self.status = status
        self.code = code
        self.type = type
        self.title = title ?? (status.reasonPhrase.isEmpty ? "HTTP \(status.code)" : status.reasonPhrase)
        self.detail = detail
        self.errors = errors
        self.headers = headers
    }

    /// The problem+json response.
    public func response() -> Response {
        var fields = headers
        fields[.contentType] = "application/problem+json"
        return Response(status: status, headers: fields, body: .bytes(Array(jsonText.utf8)))
    }

    /// The JSON text of the problem.
    public var jsonText: String {
        var out = "{\"type\":" + JSONText.quoted(type) + ",\"title\":" + JSONText.quoted(title)
        out += ",\"status\":\(status.code)"
        if let detail { out += ",\"detail\":" + JSONText.quoted(detail) }
        out += ",\"code\":" + JSONText.quoted(code.rawValue) + ",\"errors\":["
        for (n, error) in errors.enumerated() {
            if n > 0 { out += "," }
            out += "{"
            var parts: [String] = []
            if let index = error.index { parts.append("\"index\":\(index)") }
            if let field = error.field { parts.append("\"field\":" + JSONText.quoted(field)) }
            parts.append("\"message\":" + JSONText.quoted(error.message))
            out += parts.joined(separator: ",") + "}"
        }
        return out + "]}"
    }
}

extension HTTPError {
    /// 404 `notFound`.
    public static func notFound(_ detail: String? = nil) -> HTTPError {
        HTTPError(.notFound, code: .notFound, detail: detail)
    }
    /// 405 `methodNotAllowed` with the `Allow` field listing `allowed`.
    public static func methodNotAllowed(allowed: [HTTPRequest.Method]) -> HTTPError {
        var fields = HTTPFields()
        fields[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
        return HTTPError(.methodNotAllowed, code: .methodNotAllowed, headers: fields)
    }
    /// 400 `invalidJSON`.
    public static func invalidJSON(_ detail: String? = nil) -> HTTPError {
        HTTPError(.badRequest, code: .invalidJSON, detail: detail)
    }
    /// 422 `validationFailed` with per-item errors.
    public static func validationFailed(_ errors: [FieldError], detail: String? = nil) -> HTTPError {
        HTTPError(.unprocessableContent, code: .validationFailed, detail: detail, errors: errors)
    }
    /// 413 `payloadTooLarge`.
    public static func payloadTooLarge(_ detail: String? = nil) -> HTTPError {
        HTTPError(.contentTooLarge, code: .payloadTooLarge, detail: detail)
    }
    /// 415 `unsupportedMediaType`.
    public static func unsupportedMediaType(_ detail: String? = nil) -> HTTPError {
        HTTPError(.unsupportedMediaType, code: .unsupportedMediaType, detail: detail)
    }
    /// 401 `unauthorized` with `WWW-Authenticate: Bearer`.
    public static func unauthorized(_ detail: String? = nil) -> HTTPError {
        HTTPError(.unauthorized, code: .unauthorized, detail: detail, headers: [.wwwAuthenticate: "Bearer"])
    }
    /// 503 `unavailable`.
    public static func unavailable(_ detail: String? = nil) -> HTTPError {
        HTTPError(.serviceUnavailable, code: .unavailable, detail: detail)
    }
    /// 500 `internal` (no internals in `detail`).
    public static var `internal`: HTTPError {
        HTTPError(.internalServerError, code: .internal, detail: "An unexpected error occurred.")
    }
}
