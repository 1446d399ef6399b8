import CareSyncHTTP

/// The type catalogue, for any authenticated caller (it holds no patient data, so no audit).
struct TypesController: Sendable {
    let gate: AccessGate

    /// Its endpoints.
    var routes: [APIRoute] {
        [APIRoute(.get, "/v1/types", listTypes)]
    }

    /// GET /v1/types: the type catalogue.
    func listTypes(_ request: Request, _ context: APIContext) async throws -> Response {
        _ = try await gate.authenticate(request, context)
        return Response.json(TypeCatalogueWire.body)
    }
}
