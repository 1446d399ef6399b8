import CareSyncHTTP
import Logging

/// Counts and times every request into ``ServerMetrics`` under its route template, and writes one
/// log line per request (`http.request`: request id, method, route, status, duration), never the path.
/// Put it outermost, so errors are rendered and counted with the status the client sees.
public struct MetricsMiddleware: HTTPMiddleware {
    /// Where the figures go.
    public let metrics: ServerMetrics
    /// The level of the per-request log line, or nil for no line.
    public let logLevel: Logger.Level?

    /// Records into `metrics`; logs each request at `logLevel` unless it is nil.
    public init(metrics: ServerMetrics, logLevel: Logger.Level? = .info) {
        self.metrics = metrics
        self.logLevel = logLevel
    }

    /// Times the request, renders a thrown error, records and logs the outcome.
    public func respond(to request: Request, context: RequestContext, next: any HTTPResponder) async throws -> Response {
        let started = ContinuousClock.now
        let response: Response
        do {
            response = try await next.respond(to: request, context: context)
        } catch {
            response = ErrorRenderer.response(for: error, requestID: request.head.id, logger: context.logger)
        }
        let duration = ContinuousClock.now - started
        let route = RouteTemplate.of(request.head.path)
        let method = request.head.method.rawValue
        let status = Int(response.status.code)
        metrics.recordRequest(route: route, method: method, status: status, duration: duration)
        if let logLevel {
            let (seconds, attoseconds) = duration.components
            let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
            context.logger.log(level: logLevel, "http.request", metadata: [
                "request.id": .string(request.head.id),
                "http.method": .string(method),
                "route": .string(route),
                "status": .stringConvertible(status),
                "duration.ms": .string(String(format: "%.3f", milliseconds)),
            ])
        }
        return response
    }
}

extension ServerMetrics {
    /// The `GET /metrics` response: the text exposition with its content type.
    public func response() -> Response {
        var response = Response(status: .ok, body: .bytes(exposition()))
        response.headers[.contentType] = Self.expositionContentType
        return response
    }
}

import Foundation
