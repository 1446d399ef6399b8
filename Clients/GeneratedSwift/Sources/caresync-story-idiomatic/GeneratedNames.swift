// The generated names the shared story (Story/) uses that differ between naming strategies, for this target's
// configuration: `namingStrategy: idiomatic`, which spells `WWW-Authenticate` `wwwAuthenticate`.
// caresync-story has the same file for the default `namingStrategy: defensive`.

/// The configuration's naming strategy, as the story prints it.
let namingStrategy = "idiomatic"

/// The operations the story names as types (`Operations.GetChanges` here).
typealias GetChanges = Operations.GetChanges
typealias PostSamples = Operations.PostSamples

/// Each problem response: its problem+json body and the header fields it declares.
extension Components.Responses.BadRequest: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.applicationProblemJson } } }
extension Components.Responses.Unauthorized: ProblemAnswer {
    var problem: Components.Schemas.Problem { get throws { try body.applicationProblemJson } }
    var fields: [String: String] { ["WWW-Authenticate": headers.wwwAuthenticate] }
}
extension Components.Responses.Forbidden: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.applicationProblemJson } } }
extension Components.Responses.NotFound: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.applicationProblemJson } } }
extension Components.Responses.RequestTimeout: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.applicationProblemJson } } }
extension Components.Responses.Conflict: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.applicationProblemJson } } }
extension Components.Responses.Gone: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.applicationProblemJson } } }
extension Components.Responses.ContentTooLarge: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.applicationProblemJson } } }
extension Components.Responses.UriTooLong: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.applicationProblemJson } } }
extension Components.Responses.UnsupportedMediaType: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.applicationProblemJson } } }
extension Components.Responses.ExpectationFailed: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.applicationProblemJson } } }
extension Components.Responses.UnprocessableContent: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.applicationProblemJson } } }
extension Components.Responses.TooManyRequests: ProblemAnswer {
    var problem: Components.Schemas.Problem { get throws { try body.applicationProblemJson } }
    var fields: [String: String] { ["Retry-After": String(headers.retryAfter)] }
}
extension Components.Responses.RequestHeaderFieldsTooLarge: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.applicationProblemJson } } }
extension Components.Responses.InternalServerError: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.applicationProblemJson } } }
extension Components.Responses.NotImplemented: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.applicationProblemJson } } }
extension Components.Responses.ServiceUnavailable: ProblemAnswer {
    var problem: Components.Schemas.Problem { get throws { try body.applicationProblemJson } }
    var fields: [String: String] { ["Retry-After": String(headers.retryAfter)] }
}
extension Components.Responses.HttpVersionNotSupported: ProblemAnswer { var problem: Components.Schemas.Problem { get throws { try body.applicationProblemJson } } }
