/// The whole application seam: turn a request into a response.
public protocol HTTPResponder: Sendable {
    /// Answers one request. Thrown `HTTPResponseError`s render themselves; anything else becomes a 500.
    func respond(to request: Request, context: RequestContext) async throws -> Response
}

/// A responder made from a closure.
public struct ClosureResponder: HTTPResponder {
    private let closure: @Sendable (Request, RequestContext) async throws -> Response

    /// Wraps `closure`.
    public init(_ closure: @escaping @Sendable (Request, RequestContext) async throws -> Response) {
        self.closure = closure
    }

    /// Calls the closure.
    public func respond(to request: Request, context: RequestContext) async throws -> Response {
        try await closure(request, context)
    }
}
