import HTTPTypes

/// Echoes the request id in `X-Request-ID` on every response (the server takes a client's id
/// when it is 1–128 visible ASCII characters, else makes one).
public struct RequestIDMiddleware: HTTPMiddleware {
    /// Creates the middleware.
    public init() {}

    /// Adds `X-Request-ID` to the response, also to rendered errors.
    public func respond(to request: Request, context: RequestContext, next: any HTTPResponder) async throws -> Response {
        var response: Response
        do {
            response = try await next.respond(to: request, context: context)
        } catch {
            response = ErrorRenderer.response(for: error, requestID: request.head.id, logger: context.logger)
        }
        response.headers[Connection.requestIDName] = request.head.id
        return response
    }

    /// Whether a client-sent id is safe to adopt and log.
    static func isAcceptable(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= 128 && value.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}
