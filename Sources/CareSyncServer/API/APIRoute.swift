import CareSyncHTTP
import HTTPTypes

/// One endpoint: method, path pattern with `{name}` parameters, and its handler.
public struct APIRoute: Sendable {
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The path pattern, such as `/v1/patients/{patientId}/samples`.
    public var pattern: String
    /// The handler: the HTTP request and the API's context in, the response out; refusals are thrown `HTTPError`s.
    public var handler: @Sendable (Request, APIContext) async throws -> Response

    /// A route: method, pattern, handler.
    public init(_ method: HTTPRequest.Method, _ pattern: String,
                _ handler: @escaping @Sendable (Request, APIContext) async throws -> Response) {
        self.method = method; self.pattern = pattern; self.handler = handler
    }
}
