import CareSyncHTTP
import Logging

/// Writes one log line per request (`http.request`: request id, method, route, status, duration, sizes, and the
/// caller's token id once authenticated). The route is the pattern of the route the router chose (the label its
/// metrics carry), `other` when none matched; it stands in for the path, which names a patient. Put it outermost,
/// so a thrown error is rendered and logged with the status the client sees; `RequestLogHeadFilter` logs the
/// requests refused before the router.
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
        log(request.head, requestBytes: request.body.count, response: response, started: started,
            route: context.matchedRoute.pattern, context: context)
        return response
    }

    /// Writes the line of a request with `head` answered `response`; `route` nil is `other`.
    @inline(never)
    func log(_ head: RequestHead, requestBytes: Int, response: Response, started: ContinuousClock.Instant,
             route: String?, context: RequestContext) {
        let (seconds, attoseconds) = (ContinuousClock.now - started).components
        let logger = context.untaggedLogger
        guard logger.logLevel <= level else { return }
        let record = RequestLogRecord(
            requestID: head.id, method: head.method.rawValue, route: route ?? RequestLogRecord.unmatchedRoute,
            status: response.status.code, durationMicroseconds: seconds * 1_000_000 + attoseconds / 1_000_000_000_000,
            requestBytes: requestBytes, responseBytes: response.body.bytes?.count,
            tokenID: context.values[PrincipalKey.self]?.tokenID)
        // The server's handler writes the line from the record; any other handler gets the same fields as metadata.
        if let handler = logger.handler as? CareSyncLogHandler, handler.writesRequestLinesDirectly {
            handler.logRequest(record, level: level)
        } else {
            context.logger.log(level: level, "\(RequestLogRecord.message)", metadata: record.metadata)
        }
    }
}

/// A head filter that writes the request line of every request it refuses (401, 429, 403 before the body is read):
/// such a request never reaches the router, so `RequestLogMiddleware` would not see it. The route is the pattern
/// the router would have chosen.
public struct RequestLogHeadFilter: RequestHeadFilter {
    /// The filter that decides.
    let inner: any RequestHeadFilter
    /// The router whose patterns name the routes.
    let router: Router
    /// The line writer.
    let log: RequestLogMiddleware

    /// Logs the refusals of `inner` at `level`, naming routes by `router`'s patterns.
    public init(_ inner: any RequestHeadFilter, router: Router, level: Logger.Level = .info) {
        self.inner = inner; self.router = router; log = RequestLogMiddleware(level: level)
    }

    /// Runs `inner`; a refusal is rendered once, logged, and passed on already rendered.
    public func acceptHead(_ head: RequestHead, context: inout RequestContext) async throws {
        let started = ContinuousClock.now
        do {
            try await inner.acceptHead(head, context: &context)
        } catch {
            let response = ErrorRenderer.response(for: error, requestID: head.id, logger: context.logger)
            log.log(head, requestBytes: 0, response: response, started: started, route: router.pattern(for: head),
                    context: context)
            throw RenderedRefusal(rendered: response)
        }
    }

    /// A refusal rendered by the filter that logged it.
    struct RenderedRefusal: HTTPResponseError {
        let rendered: Response
        func response() -> Response { rendered }
    }
}
