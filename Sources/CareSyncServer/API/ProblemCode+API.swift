import CareSyncHTTP

/// The API's own problem codes (api.md), beside the HTTP layer's.
extension ProblemCode {
    /// 400: the anchor is malformed or from another database.
    public static let invalidAnchor = ProblemCode("invalidAnchor", title: "Invalid anchor")
    /// 410: the anchor is older than the tombstone retention horizon.
    public static let anchorExpired = ProblemCode("anchorExpired", title: "Anchor expired")
    /// 403: the token may not do this.
    public static let forbidden = ProblemCode("forbidden", title: "Forbidden")
    /// 409: the write conflicts with stored state.
    public static let conflict = ProblemCode("conflict", title: "Conflict")
    /// 400: an enrolment code that is wrong, expired, cancelled or used already (all answered alike).
    public static let invalidEnrolmentCode = ProblemCode("invalidEnrolmentCode", title: "Invalid enrolment code")

    /// Every code a CareSync server sends, in the order of the OpenAPI `Problem.code` enum: api.md's, then the
    /// HTTP layer's own.
    public static let all: [ProblemCode] = [
        .invalidJSON, .validationFailed, .invalidAnchor, .anchorExpired, .unauthorized, .forbidden, .notFound,
        .methodNotAllowed, .payloadTooLarge, .unsupportedMediaType, .conflict, .tooManyRequests, .unavailable, .internal,
        .invalidEnrolmentCode,
        .badRequest, .requestTimeout, .uriTooLong, .expectationFailed, .headersTooLarge, .notImplemented, .versionNotSupported,
    ]
}
