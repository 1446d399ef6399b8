/// Size limits the request parser enforces (plain Swift: the fuzz harness compiles the parser alone).
struct ParserLimits: Sendable, Equatable {
    /// Longest request line, CRLF excluded (414 over it).
    var maxRequestLineLength = 8 * 1024
    /// Largest header section (field lines with their CRLF), also for trailers (431 over it).
    var maxHeaderSize = 16 * 1024
    /// Most field lines (431 over it).
    var maxHeaderCount = 100
    /// Largest body, declared or de-chunked (413 over it).
    var maxBodySize = 8 * 1024 * 1024
}

/// A request head as the parser validated it: plain strings, framing decided.
struct ParsedHead: Sendable, Equatable {
    /// The method token as sent.
    var method: String
    /// The request-target reduced to origin-form (path and query).
    var target: String
    /// Major version digit.
    var versionMajor: Int
    /// Minor version digit.
    var versionMinor: Int
    /// Field lines in order: name as sent, value with surrounding whitespace removed.
    var fields: [(name: String, value: String)]
    /// The declared body length (0 when there is no body and no chunking).
    var contentLength: Int?
    /// Whether the body is chunked.
    var chunked: Bool
    /// Whether the connection may carry another request after this one.
    var keepAlive: Bool
    /// Whether the client waits for `100 Continue` before sending the body.
    var expectContinue: Bool

    static func == (lhs: ParsedHead, rhs: ParsedHead) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.versionMajor == rhs.versionMajor
            && lhs.versionMinor == rhs.versionMinor && lhs.contentLength == rhs.contentLength
            && lhs.chunked == rhs.chunked && lhs.keepAlive == rhs.keepAlive
            && lhs.expectContinue == rhs.expectContinue
            && lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}

/// What the parser found in the bytes it was given.
enum ParseEvent: Sendable, Equatable {
    /// The input holds no complete next element; read more.
    case needMore
    /// A complete, validated request head.
    case head(ParsedHead)
    /// Body bytes: this range of the input passed to `parse`.
    case body(Range<Int>)
    /// The end of the current request; the parser is ready for the next one.
    case end
}

/// Why a request was rejected; each maps to one status, and the connection closes after it.
enum ParseError: Error, Sendable, Equatable {
    /// 400: malformed syntax or framing (the reason is for logs and the problem detail).
    case badRequest(String)
    /// 414: request line over the limit.
    case uriTooLong
    /// 431: header section over the size or count limit.
    case headersTooLarge
    /// 413: declared or received body over the limit.
    case bodyTooLarge
    /// 501: a transfer coding (or method) not implemented.
    case notImplemented(String)
    /// 505: an HTTP version other than 1.0 or 1.1.
    case versionNotSupported
    /// 417: an expectation other than 100-continue.
    case expectationFailed

    /// The status code this error is answered with.
    var statusCode: Int {
        switch self {
        case .badRequest: 400
        case .uriTooLong: 414
        case .headersTooLarge: 431
        case .bodyTooLarge: 413
        case .notImplemented: 501
        case .versionNotSupported: 505
        case .expectationFailed: 417
        }
    }
}
