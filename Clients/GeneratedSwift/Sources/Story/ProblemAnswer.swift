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

// The conformances name the generated problem+json body case and header fields, whose names depend on the
// naming strategy: they are in each target's GeneratedNames.swift.

/// The output case name swift-openapi-generator gives each problem status (the same under either naming strategy).
let problemCases: [Int: String] = [
    400: "badRequest", 401: "unauthorized", 403: "forbidden", 404: "notFound", 405: "methodNotAllowed", 408: "requestTimeout",
    409: "conflict", 410: "gone", 413: "contentTooLarge", 414: "uriTooLong", 415: "unsupportedMediaType", 417: "expectationFailed",
    422: "unprocessableContent", 429: "tooManyRequests", 431: "requestHeaderFieldsTooLarge", 500: "internalServerError",
    501: "notImplemented", 503: "serviceUnavailable", 505: "httpVersionNotSupported",
]
