/// The machine-readable `code` of a problem+json body (api.md's list, plus server-level codes).
public struct ProblemCode: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The code as sent on the wire.
    public var rawValue: String
    /// Creates a code from its wire spelling.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a code from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// The wire spelling.
    public var description: String { rawValue }

    /// 400: the body is not well-formed JSON.
    public static let invalidJSON: ProblemCode = "invalidJSON"
    /// 422: the body is JSON but breaks the contract's rules.
    public static let validationFailed: ProblemCode = "validationFailed"
    /// 400: the anchor is malformed or from another database.
    public static let invalidAnchor: ProblemCode = "invalidAnchor"
    /// 410: the anchor is older than the tombstone retention horizon.
    public static let anchorExpired: ProblemCode = "anchorExpired"
    /// 401: missing or bad token.
    public static let unauthorized: ProblemCode = "unauthorized"
    /// 403: the token may not do this.
    public static let forbidden: ProblemCode = "forbidden"
    /// 404: no such resource (or not within the caller's reach).
    public static let notFound: ProblemCode = "notFound"
    /// 405: the path exists, the method does not.
    public static let methodNotAllowed: ProblemCode = "methodNotAllowed"
    /// 413: the body (or its inflated form) is over the limit.
    public static let payloadTooLarge: ProblemCode = "payloadTooLarge"
    /// 415: content type or content coding not accepted.
    public static let unsupportedMediaType: ProblemCode = "unsupportedMediaType"
    /// 409: the write conflicts with stored state.
    public static let conflict: ProblemCode = "conflict"
    /// 429: too many requests.
    public static let tooManyRequests: ProblemCode = "tooManyRequests"
    /// 503: the server cannot take the request now (connection cap, shutting down, store down).
    public static let unavailable: ProblemCode = "unavailable"
    /// 500: an unexpected failure; details are only in the log.
    public static let `internal`: ProblemCode = "internal"

    /// 400: the request's framing or syntax is malformed (server-level).
    public static let badRequest: ProblemCode = "badRequest"
    /// 408: the client was too slow sending the head or body (server-level).
    public static let requestTimeout: ProblemCode = "requestTimeout"
    /// 414: the request line is over the limit (server-level).
    public static let uriTooLong: ProblemCode = "uriTooLong"
    /// 417: an `Expect` other than 100-continue (server-level).
    public static let expectationFailed: ProblemCode = "expectationFailed"
    /// 431: too many header fields, or too many header bytes (server-level).
    public static let headersTooLarge: ProblemCode = "headersTooLarge"
    /// 501: a transfer coding or method the server does not implement (server-level).
    public static let notImplemented: ProblemCode = "notImplemented"
    /// 505: an HTTP version other than 1.0 and 1.1 (server-level).
    public static let versionNotSupported: ProblemCode = "versionNotSupported"

    /// Every code a CareSync server sends, api.md's and the server level's (the OpenAPI enum lists the same).
    public static let all: [ProblemCode] = [
        .invalidJSON, .validationFailed, .invalidAnchor, .anchorExpired, .unauthorized, .forbidden, .notFound,
        .methodNotAllowed, .payloadTooLarge, .unsupportedMediaType, .conflict, .tooManyRequests, .unavailable, .internal,
        .badRequest, .requestTimeout, .uriTooLong, .expectationFailed, .headersTooLarge, .notImplemented, .versionNotSupported,
    ]

    /// The fixed summary of the problem type (RFC 9457 `title`): the same for every occurrence of a code.
    public var title: String? {
        switch self {
        case .invalidJSON: "Invalid JSON"
        case .validationFailed: "Validation failed"
        case .invalidAnchor: "Invalid anchor"
        case .anchorExpired: "Anchor expired"
        case .unauthorized: "Unauthorized"
        case .forbidden: "Forbidden"
        case .notFound: "Not found"
        case .methodNotAllowed: "Method not allowed"
        case .payloadTooLarge: "Payload too large"
        case .unsupportedMediaType: "Unsupported media type"
        case .conflict: "Conflict"
        case .tooManyRequests: "Too many requests"
        case .unavailable: "Unavailable"
        case .internal: "Internal error"
        case .badRequest: "Bad request"
        case .requestTimeout: "Request timeout"
        case .uriTooLong: "URI too long"
        case .expectationFailed: "Expectation failed"
        case .headersTooLarge: "Header fields too large"
        case .notImplemented: "Not implemented"
        case .versionNotSupported: "HTTP version not supported"
        default: nil
        }
    }
}
