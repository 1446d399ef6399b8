/// Code that wraps a responder: it may change the request, the response, or answer by itself.
public protocol HTTPMiddleware: Sendable {
    /// Handles `request`, calling `next` to continue down the chain.
    func respond(to request: Request, context: RequestContext, next: any HTTPResponder) async throws -> Response
}

/// A responder that runs `middleware` around `next`.
struct MiddlewareResponder: HTTPResponder {
    let middleware: any HTTPMiddleware
    let next: any HTTPResponder

    func respond(to request: Request, context: RequestContext) async throws -> Response {
        try await middleware.respond(to: request, context: context, next: next)
    }
}

extension HTTPResponder {
    /// This responder wrapped by `middlewares`; the first one listed is the outermost.
    public func wrapped(by middlewares: any HTTPMiddleware...) -> any HTTPResponder {
        wrapped(by: middlewares)
    }

    /// This responder wrapped by `middlewares`; the first one listed is the outermost.
    public func wrapped(by middlewares: [any HTTPMiddleware]) -> any HTTPResponder {
        var responder: any HTTPResponder = self
        for middleware in middlewares.reversed() {
            responder = MiddlewareResponder(middleware: middleware, next: responder)
        }
        return responder
    }
}

/// A middleware made from a closure.
public struct ClosureMiddleware: HTTPMiddleware {
    private let closure: @Sendable (Request, RequestContext, any HTTPResponder) async throws -> Response

    /// Wraps `closure`.
    public init(_ closure: @escaping @Sendable (Request, RequestContext, any HTTPResponder) async throws -> Response) {
        self.closure = closure
    }

    /// Calls the closure.
    public func respond(to request: Request, context: RequestContext, next: any HTTPResponder) async throws -> Response {
        try await closure(request, context, next)
    }
}
