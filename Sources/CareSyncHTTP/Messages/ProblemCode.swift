/// The machine-readable `code` of a problem+json body, with its fixed `title`. This module declares the codes
/// its own refusals use; an application adds its vocabulary in an extension (CareSyncServer's `ProblemCode+API`).
public struct ProblemCode: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The code as sent on the wire.
    public var rawValue: String
    /// The summary every problem of this code carries (RFC 9457 `title`); nil: the status's reason phrase.
    public var title: String?
    /// Creates a code from its wire spelling, with no title of its own.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a code with its title.
    public init(_ rawValue: String, title: String) { self.rawValue = rawValue; self.title = title }
    /// Creates a code from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// The wire spelling.
    public var description: String { rawValue }
    /// Codes are equal when their wire spellings are.
    public static func == (lhs: ProblemCode, rhs: ProblemCode) -> Bool { lhs.rawValue == rhs.rawValue }
    /// Hashes the wire spelling.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// 400: the body is not well-formed JSON (or a gzip body does not inflate).
    public static let invalidJSON = ProblemCode("invalidJSON", title: "Invalid JSON")
    /// 422: the body is JSON but breaks the rules.
    public static let validationFailed = ProblemCode("validationFailed", title: "Validation failed")
    /// 401: missing or bad credentials.
    public static let unauthorized = ProblemCode("unauthorized", title: "Unauthorized")
    /// 404: no such resource.
    public static let notFound = ProblemCode("notFound", title: "Not found")
    /// 405: the path exists, the method does not.
    public static let methodNotAllowed = ProblemCode("methodNotAllowed", title: "Method not allowed")
    /// 413: the body (or its inflated form) is over the limit.
    public static let payloadTooLarge = ProblemCode("payloadTooLarge", title: "Payload too large")
    /// 415: content type or content coding not accepted.
    public static let unsupportedMediaType = ProblemCode("unsupportedMediaType", title: "Unsupported media type")
    /// 429: a rate limit, a connection limit per client address, or the long-poll capacity was reached.
    public static let tooManyRequests = ProblemCode("tooManyRequests", title: "Too many requests")
    /// 503: the server cannot take the request now (connection cap, shutting down).
    public static let unavailable = ProblemCode("unavailable", title: "Unavailable")
    /// 500: an unexpected failure; details are only in the log.
    public static let `internal` = ProblemCode("internal", title: "Internal error")
    /// 400: the request's framing or syntax is malformed.
    public static let badRequest = ProblemCode("badRequest", title: "Bad request")
    /// 408: the client was too slow sending the head or body.
    public static let requestTimeout = ProblemCode("requestTimeout", title: "Request timeout")
    /// 414: the request line is over the limit.
    public static let uriTooLong = ProblemCode("uriTooLong", title: "URI too long")
    /// 417: an `Expect` other than 100-continue.
    public static let expectationFailed = ProblemCode("expectationFailed", title: "Expectation failed")
    /// 431: too many header fields, or too many header bytes.
    public static let headersTooLarge = ProblemCode("headersTooLarge", title: "Header fields too large")
    /// 501: a transfer coding or method the server does not implement.
    public static let notImplemented = ProblemCode("notImplemented", title: "Not implemented")
    /// 505: an HTTP version other than 1.0 and 1.1.
    public static let versionNotSupported = ProblemCode("versionNotSupported", title: "HTTP version not supported")

    /// Every code this module's own refusals use.
    public static let httpLayer: [ProblemCode] = [
        .invalidJSON, .validationFailed, .unauthorized, .notFound, .methodNotAllowed, .payloadTooLarge, .unsupportedMediaType,
        .tooManyRequests, .unavailable, .internal, .badRequest, .requestTimeout, .uriTooLong, .expectationFailed, .headersTooLarge,
        .notImplemented, .versionNotSupported,
    ]
}
