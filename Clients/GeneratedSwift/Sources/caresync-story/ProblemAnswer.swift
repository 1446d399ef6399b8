import Foundation

/// A problem response of the generated client, whatever its status: its body and the header fields it declares.
protocol ProblemAnswer {
    /// The decoded problem+json body.
    var problem: Components.Schemas.Problem { get throws }
    /// The declared header fields, by name.
    var fields: [String: String] { get }
}

extension ProblemAnswer {
    var fields: [String: String] { [:] }
}

extension Components.Responses.BadRequest: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.application_problem_plus_json } } }
extension Components.Responses.Unauthorized: ProblemAnswer {
    var problem: Components.Schemas.Problem { get throws { try body.application_problem_plus_json } }
    var fields: [String: String] { ["WWW-Authenticate": headers.WWW_hyphen_Authenticate] }
}
extension Components.Responses.Forbidden: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.application_problem_plus_json } } }
extension Components.Responses.NotFound: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.application_problem_plus_json } } }
extension Components.Responses.RequestTimeout: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.application_problem_plus_json } } }
extension Components.Responses.Conflict: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.application_problem_plus_json } } }
extension Components.Responses.Gone: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.application_problem_plus_json } } }
extension Components.Responses.ContentTooLarge: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.application_problem_plus_json } } }
extension Components.Responses.UriTooLong: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.application_problem_plus_json } } }
extension Components.Responses.UnsupportedMediaType: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.application_problem_plus_json } } }
extension Components.Responses.ExpectationFailed: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.application_problem_plus_json } } }
extension Components.Responses.UnprocessableContent: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.application_problem_plus_json } } }
extension Components.Responses.TooManyRequests: ProblemAnswer {
    var problem: Components.Schemas.Problem { get throws { try body.application_problem_plus_json } }
    var fields: [String: String] { ["Retry-After": String(headers.Retry_hyphen_After)] }
}
extension Components.Responses.RequestHeaderFieldsTooLarge: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.application_problem_plus_json } } }
extension Components.Responses.InternalServerError: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.application_problem_plus_json } } }
extension Components.Responses.NotImplemented: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.application_problem_plus_json } } }
extension Components.Responses.ServiceUnavailable: ProblemAnswer {
    var problem: Components.Schemas.Problem { get throws { try body.application_problem_plus_json } }
    var fields: [String: String] { ["Retry-After": String(headers.Retry_hyphen_After)] }
}
extension Components.Responses.HttpVersionNotSupported: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.application_problem_plus_json } } }

/// The output case name swift-openapi-generator gives each problem status.
let problemCases: [Int: String] = [
    400: "badRequest", 401: "unauthorized", 403: "forbidden", 404: "notFound", 405: "methodNotAllowed", 408: "requestTimeout",
    409: "conflict", 410: "gone", 413: "contentTooLarge", 414: "uriTooLong", 415: "unsupportedMediaType", 417: "expectationFailed",
    422: "unprocessableContent", 429: "tooManyRequests", 431: "requestHeaderFieldsTooLarge", 500: "internalServerError",
    501: "notImplemented", 503: "serviceUnavailable", 505: "httpVersionNotSupported",
]
