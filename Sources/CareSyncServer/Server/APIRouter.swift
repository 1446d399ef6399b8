import CareSyncCore
import CareSyncHTTP
import HTTPTypes

/// Authenticates `/v1` requests from their head, before any body is read: a bad token gets its 401
/// without the client sending the body (and without `100 Continue`).
struct AuthenticationHeadFilter: RequestHeadFilter {
    let api: CareSyncAPI

    func acceptHead(_ head: RequestHead, context: inout RequestContext) async throws {
        guard head.path == "/v1" || head.path.hasPrefix("/v1/"), !CareSyncAPI.unauthenticatedPaths.contains(head.path) else { return }
        let principal: Principal
        do {
            principal = try await api.gate.authenticate(Credentials(head: head, trusted: api.gate.trustedProxies))
        } catch {
            throw api.answer(error)
        }
        context.values[PrincipalKey.self] = principal
    }
}

extension CareSyncAPI {
    /// A router with every route of the API; each answer is timed by route and kept out of every cache.
    public func makeRouter() -> Router {
        var router = Router()
        let metrics = self.metrics
        for route in routes {
            let handler = route.handler
            let recorder = metrics.requests(route: route.pattern, method: route.method.rawValue)
            router.on(route.method, route.pattern) { request, context in
                let started = ContinuousClock.now
                do {
                    return Self.answered(try await handler(request, APIContext(context)), recorder: recorder, started: started)
                } catch {
                    throw self.failed(error, recorder: recorder, started: started)
                }
            }
        }
        return router
    }

    /// `Cache-Control: no-store`, which every API answer carries unless it names its own.
    static let noStore = HTTPField(name: .cacheControl, value: "no-store")

    /// `response` kept out of every cache (API answers are per caller and change with every write), timed by its route.
    /// Out of line, as `failed` is: work inlined into an async function takes room in every request task's frames. It
    /// takes the response (`consuming`), so adding the header copies no field storage.
    @inline(never)
    static func answered(_ response: consuming Response, recorder: RouteRequestMetrics, started: ContinuousClock.Instant) -> Response {
        if !response.headers.contains(.cacheControl) { response.headers.append(noStore) }
        recorder.record(status: response.status.code, duration: ContinuousClock.now - started)
        return response
    }

    /// A handler's `error` as the API answers it (`answer`), timed by its route.
    @inline(never)
    func failed(_ error: any Error, recorder: RouteRequestMetrics, started: ContinuousClock.Instant) -> any Error {
        let error = answer(error)
        recorder.record(status: (error as? HTTPError)?.status.code ?? 500, duration: ContinuousClock.now - started)
        return error
    }

    /// `error` as the API answers it (`HTTPError.api`); a store that is unavailable is logged here, since
    /// its 503 is not logged as a failure.
    func answer(_ error: any Error) -> any Error {
        let answer = HTTPError.api(error)
        if answer is HTTPError, !(error is HTTPError) {
            logger.warning("store.unavailable", metadata: ["error": "\(error)"])
        }
        return answer
    }

    /// The head filter that authenticates `/v1` requests early.
    public func makeHeadFilter() -> any RequestHeadFilter { AuthenticationHeadFilter(api: self) }
}
