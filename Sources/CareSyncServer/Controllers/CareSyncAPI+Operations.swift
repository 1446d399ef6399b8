import CareSyncHTTP
import HTTPTypes
extension CareSyncAPI {
    /// GET /healthz: the process is up.
    func healthz(_ request: Request, _ context: APIContext) async throws -> Response { .json(["status": "ok"] as JSONValue) }

    /// GET /readyz: the store is open and migrated.
    func readyz(_ request: Request, _ context: APIContext) async throws -> Response {
        guard readiness() else { throw HTTPError.unavailable("The store is not ready.") }
        let store = self.store
        _ = try await blocking { try store.currentAnchor() }
        return .json(["status": "ready"] as JSONValue)
    }

    /// GET /metrics: Prometheus text format.
    func metricsText(_ request: Request, _ context: APIContext) async throws -> Response {
        Response(status: .ok, headers: [.contentType: ServerMetrics.expositionContentType], body: .bytes(metrics.exposition()))
    }

    /// GET /openapi.json: the contract as OpenAPI 3.1.
    func openAPI(_ request: Request, _ context: APIContext) async throws -> Response {
        Response.json(OpenAPIDocument.bytes)
    }
}
