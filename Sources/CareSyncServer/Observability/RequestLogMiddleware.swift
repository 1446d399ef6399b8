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
        let logger = context.untaggedLogger
        guard logger.logLevel <= level else { return response }
        let record = RequestLogRecord(
            requestID: request.head.id, method: request.head.method.rawValue, route: RouteTemplate.of(request.head.path),
            status: response.status.code, durationMicroseconds: seconds * 1_000_000 + attoseconds / 1_000_000_000_000,
            requestBytes: request.body.count, responseBytes: response.body.bytes?.count,
            tokenID: context.values[PrincipalKey.self]?.tokenID)
        // The server's handler writes the line from the record; any other handler gets the same fields as metadata.
        if let handler = logger.handler as? CareSyncLogHandler, handler.writesRequestLinesDirectly {
            handler.logRequest(record, level: level)
        } else {
            context.logger.log(level: level, "\(RequestLogRecord.message)", metadata: record.metadata)
        }
        return response
    }
}
