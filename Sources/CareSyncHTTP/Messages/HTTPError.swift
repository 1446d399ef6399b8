import HTTPTypes

/// An RFC 9457 problem: thrown by handlers, rendered as `application/problem+json`
/// `{"type","title","status","detail","code","errors":[{"index","field","message"}]}`, always all six members.
/// This is the one problem renderer: the HTTP layer's refusals and the API's use it alike.
public struct HTTPError: HTTPResponseError, Sendable, Hashable {
    /// The prefix of every problem `type` URI: the code follows it. An identifier, not a page to fetch.
    public static let typePrefix = "https://caresync.example/problems/"

    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// The machine-readable code (api.md).
    public var code: ProblemCode
    /// The problem type URI: `typePrefix` + code.
    public var type: String { Self.typePrefix + code.rawValue }
    /// A short summary, fixed per code (`ProblemCode.title`); the status's reason phrase for a code without one.
    public var title: String
    /// A human-readable explanation of this occurrence.
    public var detail: String
    /// Per-item, per-field errors (validation).
    public var errors: [FieldError]
    /// Extra header fields to send (`Allow`, `WWW-Authenticate`, `Retry-After` …).
    public var headers: HTTPFields

    /// Creates a problem; a 503 or 429 without `Retry-After` gets `Retry-After: 1`.
    public init(
        _ status: HTTPResponse.Status, code: ProblemCode, detail: String? = nil,
        errors: [FieldError] = [], headers: HTTPFields = [:]
    ) {
        self.status = status
        self.code = code
        let reason = status.reasonPhrase.isEmpty ? "HTTP \(status.code)" : status.reasonPhrase
        self.title = code.title ?? reason
        self.detail = detail ?? reason + "."
        self.errors = errors
        self.headers = headers
        if (status == .serviceUnavailable || status == .tooManyRequests) && self.headers[.retryAfter] == nil {
            self.headers[.retryAfter] = "1"
        }
    }

    /// The problem+json response.
    public func response() -> Response {
        var fields = headers
        fields[.contentType] = "application/problem+json"
        // A refusal is about one request: no cache may keep it (the router's 404 as much as a handler's).
        if fields[.cacheControl] == nil { fields[.cacheControl] = "no-store" }
        return Response(status: status, headers: fields, body: .bytes(Array(jsonText.utf8)))
    }

    /// The JSON text of the problem.
    public var jsonText: String {
        var out = "{\"type\":" + JSONText.quoted(type) + ",\"title\":" + JSONText.quoted(title)
        out += ",\"status\":\(status.code)"
        out += ",\"detail\":" + JSONText.quoted(detail)
        out += ",\"code\":" + JSONText.quoted(code.rawValue) + ",\"errors\":["
        for (n, error) in errors.enumerated() {
            if n > 0 { out += "," }
            out += "{\"index\":" + (error.index.map { String($0) } ?? "null")
            out += ",\"field\":" + (error.field.map(JSONText.quoted) ?? "null")
            out += ",\"message\":" + JSONText.quoted(error.message) + "}"
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
    /// 429 `tooManyRequests` with `Retry-After` in whole seconds.
    public static func tooManyRequests(_ detail: String, retryAfter seconds: Int = 1) -> HTTPError {
        HTTPError(.tooManyRequests, code: .tooManyRequests, detail: detail, headers: [.retryAfter: String(max(1, seconds))])
    }
    /// 503 `unavailable`.
    public static func unavailable(_ detail: String? = nil) -> HTTPError {
        HTTPError(.serviceUnavailable, code: .unavailable, detail: detail)
    }
    /// 500 `internal` (no internals in `detail`).
    public static var `internal`: HTTPError {
        HTTPError(.internalServerError, code: .internal, detail: "The server failed to answer; the failure is logged under the request id.")
    }
}
