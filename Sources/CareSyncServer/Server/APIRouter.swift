import CareSyncHTTP
import HTTPTypes

extension APIError: HTTPResponseError {
    /// The problem+json response.
    public func response() -> Response { httpError.response() }
}

extension APIReply {
    /// The reply as a CareSyncHTTP response.
    var httpResponse: Response {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let n = HTTPField.Name(name) { fields.append(HTTPField(name: n, value: value)) }
        }
        // API answers are per caller and change with every write: no cache may keep them.
        if fields[.cacheControl] == nil { fields[.cacheControl] = "no-store" }
        return Response(status: Self.status(status), headers: fields, body: stream.map { .stream($0) } ?? .bytes(body))
    }

    /// The status with its standard reason phrase.
    static func status(_ code: Int) -> HTTPResponse.Status {
        let known: [HTTPResponse.Status] = [
            .ok, .created, .noContent, .badRequest, .unauthorized, .forbidden, .notFound, .methodNotAllowed, .conflict, .gone,
            .contentTooLarge, .unsupportedMediaType, .unprocessableContent, .tooManyRequests, .internalServerError, .serviceUnavailable,
        ]
        return known.first { $0.code == code } ?? HTTPResponse.Status(code: code)
    }
}

/// Where the head filter leaves the authenticated caller for the handler.
enum PrincipalKey: ContextKey {
    typealias Value = Principal
}

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
    /// A router with every route of the API, translating CareSyncHTTP requests to `APIRequest`s.
    public func makeRouter() -> Router {
        var router = Router()
        let metrics = self.metrics
        for route in routes {
            let handler = route.handler
            let pattern = route.pattern, method = route.method
            router.on(HTTPRequest.Method(route.method)!, route.pattern) { request, context in
                let started = ContinuousClock.now
                let api = APIRequest(
                    method: request.head.method.rawValue, path: request.head.path,
                    query: request.head.query.map { (name: $0.name, value: $0.value ?? "") },
                    headers: request.head.headers.map { (name: $0.name.rawName, value: $0.value) },
                    body: request.body,
                    parameters: Dictionary(context.parameters.all.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a }),
                    id: request.head.id, principal: context.values[PrincipalKey.self])
                do {
                    let reply = try await handler(api)
                    metrics.recordRequest(route: pattern, method: method, status: reply.status, duration: ContinuousClock.now - started)
                    return reply.httpResponse
                } catch let error as APIError {
                    metrics.recordRequest(route: pattern, method: method, status: error.status, duration: ContinuousClock.now - started)
                    throw error
                } catch {
                    metrics.recordRequest(route: pattern, method: method, status: 500, duration: ContinuousClock.now - started)
                    throw error
                }
            }
        }
        return router
    }

    /// The head filter that authenticates `/v1` requests early.
    public func makeHeadFilter() -> any RequestHeadFilter { AuthenticationHeadFilter(api: self) }
}
