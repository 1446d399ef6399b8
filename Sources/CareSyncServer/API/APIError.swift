import CareSyncCore
import CareSyncHTTP
import HTTPTypes

/// An error that renders itself as `application/problem+json` (RFC 9457) with api.md's `code`.
public struct APIError: Error, Sendable {
    /// The HTTP status.
    public var status: Int
    /// One of api.md's fixed `code` strings.
    public var code: String
    /// A short, fixed summary of the problem type.
    public var title: String
    /// What went wrong with this request, for a human; never internals.
    public var detail: String
    /// Every problem by item index and field, when the body was at fault.
    public var errors: [ValidationProblem]
    /// Extra response headers (`WWW-Authenticate`, `Allow`, `Retry-After`).
    public var headers: [(String, String)] = []

    /// An error with a status, code and detail.
    public init(status: Int, code: String, title: String, detail: String, errors: [ValidationProblem] = []) {
        self.status = status; self.code = code; self.title = title; self.detail = detail; self.errors = errors
    }

    /// 400 `invalidJSON`.
    public static func invalidJSON(_ detail: String) -> APIError {
        APIError(status: 400, code: "invalidJSON", title: "Invalid JSON", detail: detail)
    }
    /// 422 `validationFailed` with every problem.
    public static func validation(_ problems: [ValidationProblem], detail: String? = nil) -> APIError {
        APIError(status: 422, code: "validationFailed", title: "Validation failed",
                 detail: detail ?? "\(problems.count) problem(s) in the request; nothing was stored.", errors: problems)
    }
    /// 422 `validationFailed` for one query parameter or field.
    public static func invalidParameter(_ field: String, _ message: String) -> APIError {
        validation([ValidationProblem(index: nil, field: field, message: message)], detail: message)
    }
    /// 400 `invalidAnchor`.
    public static let invalidAnchor = APIError(status: 400, code: "invalidAnchor", title: "Invalid anchor",
        detail: "The anchor is malformed or comes from another database; restart from no anchor.")
    /// 410 `anchorExpired`.
    public static let anchorExpired = APIError(status: 410, code: "anchorExpired", title: "Anchor expired",
        detail: "The anchor is older than the tombstone retention horizon; restart from no anchor.")
    /// 401 `unauthorized` with `WWW-Authenticate: Bearer`.
    public static func unauthorized(_ detail: String, error: String = "invalid_token") -> APIError {
        var e = APIError(status: 401, code: "unauthorized", title: "Unauthorized", detail: detail)
        e.headers = [("WWW-Authenticate", "Bearer realm=\"caresync\", error=\"\(error)\"")]
        return e
    }
    /// 401 for a request with no credentials at all (RFC 6750: no error attribute).
    public static let missingToken: APIError = {
        var e = APIError(status: 401, code: "unauthorized", title: "Unauthorized", detail: "A bearer token is required.")
        e.headers = [("WWW-Authenticate", "Bearer realm=\"caresync\"")]
        return e
    }()
    /// 403 `forbidden`.
    public static func forbidden(_ detail: String, errors: [ValidationProblem] = []) -> APIError {
        APIError(status: 403, code: "forbidden", title: "Forbidden", detail: detail, errors: errors)
    }
    /// 404 `notFound`.
    public static func notFound(_ detail: String = "No such resource.") -> APIError {
        APIError(status: 404, code: "notFound", title: "Not found", detail: detail)
    }
    /// 405 `methodNotAllowed` with `Allow`.
    public static func methodNotAllowed(allowed: [String]) -> APIError {
        var e = APIError(status: 405, code: "methodNotAllowed", title: "Method not allowed",
                         detail: "Allowed: \(allowed.joined(separator: ", ")).")
        e.headers = [("Allow", allowed.joined(separator: ", "))]
        return e
    }
    /// 413 `payloadTooLarge`.
    public static func payloadTooLarge(_ detail: String) -> APIError {
        APIError(status: 413, code: "payloadTooLarge", title: "Payload too large", detail: detail)
    }
    /// 415 `unsupportedMediaType`.
    public static func unsupportedMediaType(_ detail: String) -> APIError {
        APIError(status: 415, code: "unsupportedMediaType", title: "Unsupported media type", detail: detail)
    }
    /// 409 `conflict`.
    public static func conflict(_ detail: String) -> APIError {
        APIError(status: 409, code: "conflict", title: "Conflict", detail: detail)
    }
    /// 429 `tooManyRequests` with `Retry-After` in whole seconds.
    public static func tooManyRequests(_ detail: String, retryAfter seconds: Int = 1) -> APIError {
        var e = APIError(status: 429, code: "tooManyRequests", title: "Too many requests", detail: detail)
        e.headers = [("Retry-After", String(max(1, seconds)))]
        return e
    }
    /// 503 `unavailable`.
    public static func unavailable(_ detail: String) -> APIError {
        var e = APIError(status: 503, code: "unavailable", title: "Unavailable", detail: detail)
        e.headers = [("Retry-After", "1")]
        return e
    }
    /// 500 `internal`: never says what broke.
    public static let `internal` = APIError(status: 500, code: "internal", title: "Internal error",
        detail: "The server failed to answer; the failure is logged under the request id.")

    /// Maps a store error to its status and code.
    public static func from(_ error: SyncError) -> APIError {
        switch error {
        case .invalidAnchor: .invalidAnchor
        case .anchorExpired: .anchorExpired
        case .validationFailed(let problems): .validation(problems)
        case .conflict(let detail): .conflict(detail)
        case .notFound: .notFound()
        }
    }

    /// The problem in the HTTP layer's one renderer (same shape and `type` scheme as every other refusal).
    public var httpError: HTTPError {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let n = HTTPField.Name(name) { fields.append(HTTPField(name: n, value: value)) }
        }
        return HTTPError(APIReply.status(status), code: ProblemCode(rawValue: code), detail: detail,
                         errors: errors.map { FieldError(index: $0.index, field: $0.field, message: $0.message) }, headers: fields)
    }
}
