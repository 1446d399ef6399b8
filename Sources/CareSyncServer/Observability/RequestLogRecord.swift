import Logging

/// The fields of one `http.request` log line, typed, so the line can be written without building metadata
/// (``CareSyncLogHandler/logRequest(_:level:)``); ``metadata`` is the same line for any other log handler.
public struct RequestLogRecord: Sendable, Equatable {
    /// The message of every request line.
    public static let message = "http.request"
    /// The route of a request no route matched.
    public static let unmatchedRoute = "other"

    /// The server-made request id (`request.id`).
    public var requestID: String
    /// The request method (`http.method`).
    public var method: String
    /// The matched route's pattern, never the path: a path names a patient (`route`).
    public var route: String
    /// The status sent (`http.status`).
    public var status: Int
    /// Microseconds from the request reaching the handlers to its response (`http.duration_us`).
    public var durationMicroseconds: Int64
    /// Bytes of the request body (`http.request_bytes`).
    public var requestBytes: Int
    /// Bytes of the response body when it is not streamed (`http.response_bytes`).
    public var responseBytes: Int?
    /// The caller's token id once authenticated (`token.id`).
    public var tokenID: String?

    /// Creates a record.
    public init(requestID: String, method: String, route: String, status: Int, durationMicroseconds: Int64,
                requestBytes: Int, responseBytes: Int?, tokenID: String?) {
        self.requestID = requestID; self.method = method; self.route = route; self.status = status
        self.durationMicroseconds = durationMicroseconds; self.requestBytes = requestBytes
        self.responseBytes = responseBytes; self.tokenID = tokenID
    }

    /// The record as swift-log metadata, for handlers other than ``CareSyncLogHandler``.
    public var metadata: Logger.Metadata {
        var metadata: Logger.Metadata = [
            "request.id": .string(requestID),
            "http.method": .string(method),
            "route": .string(route),
            "http.status": .stringConvertible(status),
            "http.duration_us": .stringConvertible(durationMicroseconds),
            "http.request_bytes": .stringConvertible(requestBytes),
        ]
        if let responseBytes { metadata["http.response_bytes"] = .stringConvertible(responseBytes) }
        if let tokenID { metadata["token.id"] = .string(tokenID) }
        return metadata
    }
}
