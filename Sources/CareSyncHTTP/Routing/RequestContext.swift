import Logging

/// What travels beside a request: a logger carrying `request.id`, path parameters, and typed values
/// that a head filter or middleware hands to the handler (for example the authenticated caller).
public struct RequestContext: Sendable {
    private var baseLogger: Logger
    private var requestID: String?
    /// The path parameters of the matched route (`{patientId}` …), percent-decoded.
    public var parameters: PathParameters
    /// Typed values keyed by `ContextKey` types.
    public var values: ContextValues
    /// The route the router chose, noted for whoever wrapped it (the request log): shared by every copy of this context.
    public let matchedRoute = MatchedRoute()

    /// Creates a context.
    public init(logger: Logger, parameters: PathParameters = PathParameters(), values: ContextValues = ContextValues()) {
        self.baseLogger = logger
        self.parameters = parameters
        self.values = values
    }

    /// Creates a context whose logger carries `request.id` (added when the logger is first read,
    /// so requests that never log do not pay for the metadata).
    init(logger: Logger, requestID: String) {
        self.baseLogger = logger
        self.requestID = requestID
        self.parameters = PathParameters()
        self.values = ContextValues()
    }

    /// The logger without the `request.id` metadata (for a line that writes the id itself, such as the access log).
    public var untaggedLogger: Logger { baseLogger }

    /// A logger with `request.id` metadata set.
    public var logger: Logger {
        get {
            guard let requestID else { return baseLogger }
            var tagged = baseLogger
            tagged[metadataKey: "request.id"] = .string(requestID)
            return tagged
        }
        set {
            baseLogger = newValue
            requestID = nil
        }
    }
}

/// The pattern of the route a request was handed to (`/v1/patients/{patientId}/changes`), nil until the router chose one.
/// @unchecked: the router writes it in the request's task before calling the handler, and the middleware around the
/// router reads it in the same task after the router returned or threw.
public final class MatchedRoute: @unchecked Sendable {
    /// The chosen route's pattern.
    public internal(set) var pattern: String?

    init() {}
}

/// A key for a typed value in `RequestContext.values`.
public protocol ContextKey {
    /// The type of the stored value.
    associatedtype Value: Sendable
}

/// Typed storage on a request context: `context.values[CallerKey.self] = caller`.
public struct ContextValues: Sendable {
    private var storage: [ObjectIdentifier: any Sendable] = [:]

    /// Creates empty storage.
    public init() {}

    /// The value stored for `key`, or nil.
    public subscript<Key: ContextKey>(key: Key.Type) -> Key.Value? {
        get { storage[ObjectIdentifier(key)] as? Key.Value }
        set { storage[ObjectIdentifier(key)] = newValue }
    }
}

/// The named path parameters of a matched route.
public struct PathParameters: Sendable, Hashable {
    private var pairs: [(String, String)] = []

    /// Creates parameters from name/value pairs.
    public init(_ pairs: [(String, String)] = []) { self.pairs = pairs }

    /// The decoded value of `{name}`, or nil.
    public subscript(name: String) -> String? {
        pairs.first { $0.0 == name }?.1
    }

    /// The decoded value of `{name}`; throws a 404 when the route has no such parameter.
    public func require(_ name: String) throws -> String {
        guard let value = self[name] else { throw HTTPError.notFound("missing path parameter \(name)") }
        return value
    }

    /// All parameters in path order.
    public var all: [(name: String, value: String)] { pairs.map { (name: $0.0, value: $0.1) } }

    /// Parameters are equal when their pairs are.
    public static func == (lhs: PathParameters, rhs: PathParameters) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0 == $1 }
    }

    /// Hashes the pairs.
    public func hash(into hasher: inout Hasher) {
        for (name, value) in pairs {
            hasher.combine(name)
            hasher.combine(value)
        }
    }
}
