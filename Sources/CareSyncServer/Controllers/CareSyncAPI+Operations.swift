extension CareSyncAPI {
    /// GET /healthz: the process is up.
    func healthz(_ request: APIRequest) async throws -> APIReply { .json(["status": "ok"]) }

    /// GET /readyz: the store is open and migrated.
    func readyz(_ request: APIRequest) async throws -> APIReply {
        guard readiness() else { throw APIError.unavailable("The store is not ready.") }
        let store = self.store
        _ = try await blocking { try store.currentAnchor() }
        return .json(["status": "ready"])
    }

    /// GET /metrics: Prometheus text format.
    func metricsText(_ request: APIRequest) async throws -> APIReply {
        APIReply(status: 200, headers: [("Content-Type", ServerMetrics.expositionContentType)], body: metrics.exposition())
    }

    /// GET /openapi.json: the contract as OpenAPI 3.1.
    func openAPI(_ request: APIRequest) async throws -> APIReply {
        APIReply(status: 200, headers: [("Content-Type", "application/json")], body: OpenAPIDocument.bytes)
    }
}
