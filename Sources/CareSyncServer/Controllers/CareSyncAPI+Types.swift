import CareSyncHTTP
extension CareSyncAPI {
    /// GET /v1/types: the type catalogue, for any authenticated caller (it holds no patient data, so no audit).
    func listTypes(_ request: Request, _ context: APIContext) async throws -> Response {
        _ = try await authenticate(request, context)
        return Response.json(TypeCatalogueWire.body)
    }
}
