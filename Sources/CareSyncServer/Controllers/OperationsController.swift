import CareSyncCore
import CareSyncHTTP
import HTTPTypes
import Logging

/// Operations: liveness, readiness, metrics and the OpenAPI document; no authentication, no audit.
struct OperationsController: Sendable {
    let store: any SyncStore
    let executor: BlockingExecutor
    let readiness: @Sendable () -> Bool
    let metrics: ServerMetrics
    let logger: Logger

    /// Its endpoints.
    var routes: [APIRoute] {
        [
            APIRoute(.get, "/healthz", healthz),
            APIRoute(.get, "/readyz", readyz),
            APIRoute(.get, "/metrics", metricsText),
            APIRoute(.get, "/openapi.json", openAPI),
        ]
    }

    /// GET /healthz: the process is up.
    func healthz(_ request: Request, _ context: APIContext) async throws -> Response { Self.healthy }

    /// The answer of every `GET /healthz`, serialized once, with the `Cache-Control` every API answer carries.
    static let healthy = Response.json(["status": "ok"] as JSONValue, headers: [.cacheControl: CareSyncAPI.noStore.value])

    /// GET /readyz: the store is open and migrated, its database reachable and writable.
    func readyz(_ request: Request, _ context: APIContext) async throws -> Response {
        guard readiness() else { throw HTTPError.unavailable("The store is not ready.") }
        let store = self.store
        do {
            try await executor.run { _ = try store.currentAnchor(); try store.checkWritable() }
        } catch {
            logger.warning("readiness.store_unavailable", metadata: ["error": "\(error)"])
            throw HTTPError.unavailable("The database is not reachable or takes no writes.")
        }
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
