import CareSyncCore
import CareSyncHTTP

/// How people can sign in here, for the web app's sign-in screen (unauthenticated): passkeys always; an OpenID
/// Connect provider's button (`{"name", "start"}`) when one is configured, else null.
struct SignInMethodsController: Sendable {
    /// The provider button, or `.null`.
    let openIDConnect: JSONValue

    /// The path, open to anyone.
    static let path = "/v1/sign-in/methods"

    /// Its endpoints.
    var routes: [APIRoute] { [APIRoute(.get, Self.path, methods)] }

    /// GET /v1/sign-in/methods → `{"passkeys": true, "openIDConnect": null | {"name", "start"}}`.
    func methods(_ request: Request, _ context: APIContext) async throws -> Response {
        Response.json(["passkeys": .bool(true), "openIDConnect": openIDConnect])
    }
}
