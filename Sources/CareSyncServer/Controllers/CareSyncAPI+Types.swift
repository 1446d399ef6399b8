extension CareSyncAPI {
    /// GET /v1/types: the type catalogue, for any authenticated caller (it holds no patient data, so no audit).
    func listTypes(_ request: APIRequest) async throws -> APIReply {
        _ = try await authenticate(request)
        return APIReply(status: 200, headers: [("Content-Type", "application/json")], body: TypeCatalogueWire.body)
    }
}
