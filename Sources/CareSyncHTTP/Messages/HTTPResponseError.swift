import Logging

/// An error that knows its own HTTP rendering; anything else thrown becomes an opaque, logged 500.
public protocol HTTPResponseError: Error {
    /// The response that reports this error to the client.
    func response() -> Response
}

/// Turns any thrown error into the response the client sees.
public enum ErrorRenderer {
    /// An `HTTPResponseError` renders itself; anything else is logged at error level and becomes a 500 `internal`.
    @inline(never)
    public static func response(for error: any Error, requestID: String, logger: Logger) -> Response {
        if let known = error as? any HTTPResponseError {
            return known.response()
        }
        var log = logger
        log[metadataKey: "request.id"] = .string(requestID)
        log.error("request.failed", metadata: ["error": .string(String(reflecting: error))])
        return HTTPError.internal.response()
    }
}
