import Dispatch
import Logging

/// Logs one line per request through swift-log: method, path, status, duration, sizes, peer.
public struct AccessLogMiddleware: HTTPMiddleware {
    private let level: Logger.Level

    /// Creates the middleware logging at `level`.
    public init(level: Logger.Level = .info) {
        self.level = level
    }

    /// Times the request and logs `http.request` with metadata; errors are rendered first so their status is logged.
    public func respond(to request: Request, context: RequestContext, next: any HTTPResponder) async throws -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        let response: Response
        do {
            response = try await next.respond(to: request, context: context)
        } catch {
            response = ErrorRenderer.response(for: error, requestID: request.head.id, logger: context.logger)
        }
        let micros = (DispatchTime.now().uptimeNanoseconds - started) / 1000
        var metadata: Logger.Metadata = [
            "http.method": .string(request.head.method.rawValue),
            "http.path": .string(request.head.path),
            "http.status": .stringConvertible(response.status.code),
            "http.duration_us": .stringConvertible(micros),
            "http.request_bytes": .stringConvertible(request.body.count),
        ]
        if let bytes = response.body.bytes { metadata["http.response_bytes"] = .stringConvertible(bytes.count) }
        if let peer = request.head.remoteAddress { metadata["http.peer"] = .string(peer) }
        context.logger.log(level: level, "http.request", metadata: metadata)
        return response
    }
}
