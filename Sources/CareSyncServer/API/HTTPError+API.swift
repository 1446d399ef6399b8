import CareSyncCore
import CareSyncHTTP
import HTTPTypes

/// The API's refusals, in the one problem type every layer renders (codes in `ProblemCode+API`).
extension HTTPError {
    /// 422 `validationFailed` with every problem.
    static func validation(_ problems: [ValidationProblem], detail: String? = nil) -> HTTPError {
        validationFailed(problems.map { FieldError(index: $0.index, field: $0.field, message: $0.message) },
                         detail: detail ?? "\(problems.count) problem(s) in the request; nothing was stored.")
    }
    /// 422 `validationFailed` for one query parameter or field.
    static func invalidParameter(_ field: String, _ message: String) -> HTTPError {
        validation([ValidationProblem(index: nil, field: field, message: message)], detail: message)
    }
    /// 400 `invalidAnchor`.
    static let invalidAnchor = HTTPError(.badRequest, code: .invalidAnchor,
        detail: "The anchor is malformed or comes from another database; restart from no anchor.")
    /// 410 `anchorExpired`.
    static let anchorExpired = HTTPError(.gone, code: .anchorExpired,
        detail: "The anchor is older than the tombstone retention horizon; restart from no anchor.")
    /// 401 `unauthorized` for a token that is bad, expired or revoked (RFC 6750 `error` attribute).
    static func invalidToken(_ detail: String, error: String = "invalid_token") -> HTTPError {
        HTTPError(.unauthorized, code: .unauthorized, detail: detail,
                  headers: [.wwwAuthenticate: "Bearer realm=\"caresync\", error=\"\(error)\""])
    }
    /// 401 for a request with no credentials at all (RFC 6750: no error attribute).
    static let missingToken = HTTPError(.unauthorized, code: .unauthorized, detail: "A bearer token is required.",
                                        headers: [.wwwAuthenticate: "Bearer realm=\"caresync\""])
    /// 403 `forbidden`, naming each refused item.
    static func forbidden(_ detail: String, errors: [ValidationProblem] = []) -> HTTPError {
        HTTPError(.forbidden, code: .forbidden, detail: detail,
                  errors: errors.map { FieldError(index: $0.index, field: $0.field, message: $0.message) })
    }
    /// 409 `conflict`.
    static func conflict(_ detail: String) -> HTTPError {
        HTTPError(.conflict, code: .conflict, detail: detail)
    }

    /// A thrown error as the API answers it: a store failure that passes by itself (`StoreUnavailability`:
    /// the database unreachable, failing over, read-only) is 503 `unavailable` with `Retry-After`, not a 500;
    /// anything else is unchanged.
    static func api(_ error: any Error) -> any Error {
        guard let failure = error as? any StoreUnavailability, failure.isStoreUnavailable else { return error }
        return HTTPError.unavailable("The database is not reachable or takes no writes (a failover or a restart); retry shortly.")
    }

    /// A store error as its status and code.
    static func from(_ error: SyncError) -> HTTPError {
        switch error {
        case .invalidAnchor: .invalidAnchor
        case .anchorExpired: .anchorExpired
        case .validationFailed(let problems): .validation(problems)
        case .conflict(let detail): .conflict(detail)
        case .notFound: .notFound("No such resource.")
        }
    }
}
