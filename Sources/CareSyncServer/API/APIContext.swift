import CareSyncHTTP
import Logging

/// What an API handler gets beside the HTTP `Request`: the caller the head filter authenticated, the matched
/// route's path parameters and the request's logger (as Hummingbird 2's typed request context).
public struct APIContext: Sendable {
    /// The caller, when the head filter already authenticated it (every `/v1` request).
    public var principal: Principal?
    /// The decoded path parameters of the matched route.
    public var parameters: PathParameters
    /// Where ``logger`` comes from: the HTTP layer's context, which adds `request.id` only when a handler logs.
    private var logging: RequestContext

    /// A logger carrying `request.id`.
    public var logger: Logger {
        get { logging.logger }
        set { logging.logger = newValue }
    }

    /// A context from its parts (the router builds it from the HTTP layer's `RequestContext`).
    public init(principal: Principal? = nil, parameters: PathParameters = PathParameters(),
                logger: Logger = Logger(label: "caresync.api")) {
        self.principal = principal; self.parameters = parameters; self.logging = RequestContext(logger: logger)
    }

    /// The API's view of the HTTP layer's context.
    init(_ context: RequestContext) {
        principal = context.values[PrincipalKey.self]
        parameters = context.parameters
        logging = context
    }

    /// A path parameter that meets its id rule (`PathID`); a missing one, or one breaking the rule, is a 404.
    public func parameter(_ name: String) throws(HTTPError) -> String {
        guard let value = parameters[name] else { throw HTTPError.notFound() }
        guard PathID.isValid(value, name: name) else { throw PathID.refusal(name: name) }
        return value
    }

    /// This context with its caller known, so handlers down the line do not authenticate it again.
    func authenticated(as principal: Principal) -> APIContext {
        var known = self
        known.principal = principal
        return known
    }
}

/// Where the head filter leaves the authenticated caller for the handler.
enum PrincipalKey: ContextKey {
    typealias Value = Principal
}
