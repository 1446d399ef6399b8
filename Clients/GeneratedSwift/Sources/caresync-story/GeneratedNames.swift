// The generated names the shared story (Story/) uses that differ between naming strategies, for this target's
// configuration: swift-openapi-generator's default `namingStrategy: defensive`, which spells `WWW-Authenticate`
// `WWW_hyphen_Authenticate`. caresync-story-idiomatic has the same file for `namingStrategy: idiomatic`.

/// The configuration's naming strategy, as the story prints it.
let namingStrategy = "defensive"

/// The operations the story names as types (`Operations.getChanges` here).
typealias GetChanges = Operations.getChanges
typealias PostSamples = Operations.postSamples

/// Each problem response: its problem+json body and the header fields it declares.
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
