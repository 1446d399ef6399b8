import CareSyncHTTP

/// GET /v1/sign-in/methods (no credentials): which ways of signing in this server offers, for the web app's
/// sign-in screen: `{"passkeys": true, "openIDConnect": {"name", "start"} | null}`.
struct SignInMethodsController: Sendable {
    /// The path, open to everyone.
    static let path = "/v1/sign-in/methods"
    /// The OpenID Connect button's label, or nil when it is not configured.
    let openIDConnectName: String?

    /// Its endpoints.
    var routes: [APIRoute] { [APIRoute(.get, Self.path, methods)] }

    /// GET /v1/sign-in/methods.
    func methods(_ request: Request, _ context: APIContext) async throws -> Response {
        let oidc: JSONValue = openIDConnectName.map { ["name": .string($0), "start": .string(OIDCController.startPath)] } ?? .null
        return Response.json(["passkeys": .bool(true), "openIDConnect": oidc])
    }
}
