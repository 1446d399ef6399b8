import HTTPTypes

/// Routes requests by method and path pattern (`/v1/patients/{patientId}/samples`).
/// Unknown path: 404 `notFound`. Known path, other method: 405 `methodNotAllowed` with `Allow`.
/// HEAD is answered by the GET route. A literal segment beats a `{parameter}` at the same place.
public struct Router: HTTPResponder {
    /// A request handler.
    public typealias Handler = @Sendable (Request, RequestContext) async throws -> Response

    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    private struct Route: Sendable {
        /// The pattern as added (`/v1/patients/{patientId}/samples`).
        let pattern: String
        let method: HTTPRequest.Method
        let segments: [Segment]
        let handler: Handler
        /// Per segment, whether it is a literal: how specific a match is (`beats`).
        let score: [Bool]
    }

    /// The routes by their number of segments, each list in the order the routes were added: a request is
    /// matched against the routes of its own length only (no copy of every route per request).
    private var routesByLength: [[Route]] = []
    /// The routes without parameters by their pattern, in the order added: a request whose path is one of them, in a
    /// method one of them has, goes there without the segment match (a route of literals beats any other).
    private var literalRoutes: [String: [Route]] = [:]

    /// Creates an empty router.
    public init() {}

    /// Adds a route; `pattern` is a path whose `{name}` segments become path parameters.
    public mutating func on(_ method: HTTPRequest.Method, _ pattern: String, use handler: @escaping Handler) {
        let segments = PathSegments.of(pattern[...]).map(String.init).map { part -> Segment in
            if part.hasPrefix("{"), part.hasSuffix("}"), part.count > 2 {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(part)
        }
        let score = segments.map { if case .literal = $0 { true } else { false } }
        while routesByLength.count <= segments.count { routesByLength.append([]) }
        let route = Route(pattern: pattern, method: method, segments: segments, handler: handler, score: score)
        routesByLength[segments.count].append(route)
        if !score.contains(false) { literalRoutes[pattern, default: []].append(route) }
    }

    /// Adds a GET route.
    public mutating func get(_ pattern: String, use handler: @escaping Handler) { on(.get, pattern, use: handler) }
    /// Adds a POST route.
    public mutating func post(_ pattern: String, use handler: @escaping Handler) { on(.post, pattern, use: handler) }
    /// Adds a PUT route.
    public mutating func put(_ pattern: String, use handler: @escaping Handler) { on(.put, pattern, use: handler) }
    /// Adds a PATCH route.
    public mutating func patch(_ pattern: String, use handler: @escaping Handler) { on(.patch, pattern, use: handler) }
    /// Adds a DELETE route.
    public mutating func delete(_ pattern: String, use handler: @escaping Handler) { on(.delete, pattern, use: handler) }

    /// Finds the route for the request and calls its handler with the path parameters in the context; notes the
    /// route's pattern in `context.matchedRoute`.
    public func respond(to request: Request, context: RequestContext) async throws -> Response {
        if let literal = literalRoute(for: request.head) {
            context.matchedRoute.pattern = literal.pattern
            return try await literal.handler(request, context)
        }
        let parts = PathSegments.of(request.head.path[...])
        let chosen = try choose(request.head, parts: parts)
        context.matchedRoute.pattern = chosen.pattern
        var pairs: [(String, String)] = []
        for (segment, part) in zip(chosen.segments, parts) {
            if case .parameter(let name) = segment {
                pairs.append((name, QueryItem.percentDecoded(part)))
            }
        }
        var routed = context
        routed.parameters = PathParameters(pairs)
        return try await chosen.handler(request, routed)
    }

    /// The pattern of the route a request with `head` would be handed to; nil when none would (404 or 405).
    public func pattern(for head: RequestHead) -> String? {
        if let literal = literalRoute(for: head) { return literal.pattern }
        return try? choose(head, parts: PathSegments.of(head.path[...])).pattern
    }

    /// The first route of literals whose pattern is `head`'s path, in `head`'s own method: what `choose` would pick,
    /// found by one lookup. nil otherwise (HEAD answered by GET, parameters, 404 and 405 go through `choose`).
    private func literalRoute(for head: RequestHead) -> Route? {
        literalRoutes[head.path]?.first { $0.method == head.method }
    }

    /// The most specific route for `head` whose path is `parts`; 404 when no route has the path, 405 when none
    /// has the method.
    private func choose(_ head: RequestHead, parts: [Substring]) throws(HTTPError) -> Route {
        var best: (route: Route, score: [Bool])?
        var allowed: [HTTPRequest.Method] = []
        let candidates = parts.count < routesByLength.count ? routesByLength[parts.count] : []
        for route in candidates {
            guard Self.matches(route.segments, parts) else { continue }
            let score = route.score
            if !allowed.contains(route.method) { allowed.append(route.method) }
            let methodFits = route.method == head.method || (head.method == .head && route.method == .get)
            guard methodFits else { continue }
            if let current = best {
                let exact = route.method == head.method && current.route.method != route.method
                if Self.beats(score, current.score) || (exact && !Self.beats(current.score, score)) {
                    best = (route, score)
                }
            } else {
                best = (route, score)
            }
        }
        guard let chosen = best?.route else {
            if allowed.isEmpty { throw HTTPError.notFound("No resource at \(head.path).") }
            if allowed.contains(.get), !allowed.contains(.head) { allowed.append(.head) }
            throw HTTPError.methodNotAllowed(allowed: allowed)
        }
        return chosen
    }

    /// Whether `segments` matches `parts`: equal literals, non-empty parameters.
    private static func matches(_ segments: [Segment], _ parts: [Substring]) -> Bool {
        guard segments.count == parts.count else { return false }
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let text): guard text == part else { return false }
            case .parameter: guard !part.isEmpty else { return false }
            }
        }
        return true
    }

    /// Whether `a` is more specific than `b` (a literal earlier wins).
    private static func beats(_ a: [Bool], _ b: [Bool]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return x }
        return false
    }
}
