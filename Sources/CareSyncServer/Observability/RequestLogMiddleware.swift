import CareSyncHTTP
import Logging

/// Writes one log line per request (`http.request`: request id, method, route template, status,
/// duration, sizes, and the caller's token id once authenticated). The route template stands
/// in for the path, which names a patient. Put it outermost, so a thrown error is rendered and
/// logged with the status the client sees.
public struct RequestLogMiddleware: HTTPMiddleware {
    /// The level of the line.
    public let level: Logger.Level

    /// Logs each request at `level`.
    public init(level: Logger.Level = .info) {
        self.level = level
    }

    /// Times the request, renders a thrown error, and logs the outcome.
    public func respond(to request: Request, context: RequestContext, next: any HTTPResponder) async throws -> Response {
        let started = ContinuousClock.now
        let response: Response
        do {
            response = try await next.respond(to: request, context: context)
        } catch {
            response = ErrorRenderer.response(for: error, requestID: request.head.id, logger: context.logger)
        }
        let (seconds, attoseconds) = (ContinuousClock.now - started).components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        var metadata: Logger.Metadata = [
            "request.id": .string(request.head.id),
            "http.method": .string(request.head.method.rawValue),
            "route": .string(RouteTemplate.of(request.head.path)),
            "http.status": .stringConvertible(response.status.code),
            "http.duration_us": .stringConvertible(microseconds),
            "http.request_bytes": .stringConvertible(request.body.count),
        ]
        if let bytes = response.body.bytes { metadata["http.response_bytes"] = .stringConvertible(bytes.count) }
        if let principal = context.values[PrincipalKey.self] { metadata["token.id"] = .string(principal.tokenID) }
        context.logger.log(level: level, "http.request", metadata: metadata)
        return response
    }
}
