import CareSyncHTTP
import HTTPTypes

/// Authenticates `/v1` requests from their head, before any body is read: a bad token gets its 401
/// without the client sending the body (and without `100 Continue`).
struct AuthenticationHeadFilter: RequestHeadFilter {
    let api: CareSyncAPI

    func acceptHead(_ head: RequestHead, context: inout RequestContext) async throws {
        guard head.path == "/v1" || head.path.hasPrefix("/v1/") else { return }
        let principal = try await api.authenticate(authorization: head.headers[.authorization], peer: head.remoteAddress)
        context.values[PrincipalKey.self] = principal
    }
}

extension CareSyncAPI {
    /// A router with every route of the API; each answer is timed by route and kept out of every cache.
    public func makeRouter() -> Router {
        var router = Router()
        let metrics = self.metrics
        for route in routes {
            let handler = route.handler, pattern = route.pattern, method = route.method.rawValue
            router.on(route.method, route.pattern) { request, context in
                let started = ContinuousClock.now
                do {
                    var response = try await handler(request, APIContext(context))
                    // API answers are per caller and change with every write: no cache may keep them.
                    if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
                    metrics.recordRequest(route: pattern, method: method, status: response.status.code, duration: ContinuousClock.now - started)
                    return response
                } catch {
                    let status = (error as? HTTPError)?.status.code ?? 500
                    metrics.recordRequest(route: pattern, method: method, status: status, duration: ContinuousClock.now - started)
                    throw error
                }
            }
        }
        return router
    }

    /// The head filter that authenticates `/v1` requests early.
    public func makeHeadFilter() -> any RequestHeadFilter { AuthenticationHeadFilter(api: self) }
}
