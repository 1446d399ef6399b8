/// Decides, from the head alone, whether the server reads the body: the hook for early 401/413
/// and for `Expect: 100-continue` (the interim 100 goes out only once the filter returned).
public protocol RequestHeadFilter: Sendable {
    /// Returns to accept; throws (an `HTTPResponseError`, typically `HTTPError`) to refuse.
    /// The body is then never read and the connection is closed after the answer if a body was due.
    /// May store values (the authenticated caller) in `context` for the handler.
    func acceptHead(_ head: RequestHead, context: inout RequestContext) async throws
}

/// A head filter made from a closure.
public struct ClosureHeadFilter: RequestHeadFilter {
    private let closure: @Sendable (RequestHead, inout RequestContext) async throws -> Void

    /// Wraps `closure`.
    public init(_ closure: @escaping @Sendable (RequestHead, inout RequestContext) async throws -> Void) {
        self.closure = closure
    }

    /// Calls the closure.
    public func acceptHead(_ head: RequestHead, context: inout RequestContext) async throws {
        try await closure(head, &context)
    }
}
