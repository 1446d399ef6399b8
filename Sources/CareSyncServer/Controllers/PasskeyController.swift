import CareSyncCore
import CareSyncHTTP
import Foundation
import Logging

/// Passkeys (WebAuthn): the signed-in person registers, lists and removes their own; an admin (or the person) lists
/// and removes a person's; anyone signs in with one (`PasskeyController+SignIn`). Ceremonies: `PasskeyService`.
struct PasskeyController: Sendable {
    let gate: AccessGate
    let calls: StoreCalls
    let clock: ServerClock
    let passkeys: PasskeyService
    /// Each client address's budget of sign-in challenges (begun ceremonies take a database row until they expire).
    let challengeBudget: RateLimiter

    /// Begins a discoverable sign-in (unauthenticated).
    static let signInChallengePath = "/v1/sign-in/passkey/challenge"
    /// Finishes a sign-in with an assertion (unauthenticated: the assertion is the credential).
    static let signInPath = "/v1/sign-in/passkey"

    /// Its endpoints.
    var routes: [APIRoute] {
        [
            APIRoute(.post, "/v1/session/passkeys/challenge", beginRegistration),
            APIRoute(.post, "/v1/session/passkeys", finishRegistration),
            APIRoute(.get, "/v1/session/passkeys", listMine),
            APIRoute(.delete, "/v1/session/passkeys/{passkeyId}", removeMine),
            APIRoute(.get, "/v1/people/{personId}/passkeys", listPersons),
            APIRoute(.delete, "/v1/people/{personId}/passkeys/{passkeyId}", removePersons),
            APIRoute(.post, Self.signInChallengePath, beginSignIn),
            APIRoute(.post, Self.signInPath, finishSignIn),
        ]
    }

    /// POST /v1/session/passkeys/challenge: creation options for `PublicKeyCredential.parseCreationOptionsFromJSON`
    /// (discoverable, user verification required, ES256 and RS256, the person's passkeys excluded).
    func beginRegistration(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.sessionScoped(request, context, action: "person.passkey.challenge") { principal, _ in
            guard let person = principal.person else { throw HTTPError.internal }
            let ceremonies = try self.passkeys.ceremonies()
            let userName = person.displayName.isEmpty ? "\(person.role.rawValue) \(person.id)" : person.displayName
            let options = try await self.calls.blocking { () throws -> PasskeyCreationOptions in
                do {
                    return try ceremonies.beginRegistration(personID: person.id, userName: userName, displayName: userName)
                } catch PasskeyError.tooManyPendingCeremonies {
                    throw Self.busy
                }
            }
            return Response.json(Array(options.json.utf8))
        }
    }

    /// POST /v1/session/passkeys `{"credential": cred.toJSON(), "name"}`: verifies and stores the new passkey → 201.
    /// A response that fails any check of WebAuthn §7.1 is 422 and stores nothing; the challenge is used up either way.
    func finishRegistration(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.sessionScoped(request, context, action: "person.passkey.register") { principal, _ in
            guard let person = principal.person else { throw HTTPError.internal }
            let body = try request.jsonBody()
            guard let bytes = PasskeyWire.credential(in: body) else {
                throw HTTPError.invalidParameter("credential", "the browser's credential (cred.toJSON()) object is required")
            }
            let name = try Self.name(in: body)
            let ceremonies = try self.passkeys.ceremonies()
            let stored = try await self.calls.blocking { () throws -> PasskeyCredential in
                do {
                    return try ceremonies.finishRegistration(try PasskeyRegistrationResponse(json: bytes), personID: person.id, name: name)
                } catch let error as PasskeyError {
                    throw HTTPError.invalidParameter("credential", "the passkey was refused (\(error.code)); nothing was stored, start again")
                }
            }
            context.logger.info("passkey.registered", metadata: ["person.id": "\(person.id)"])
            return Response.json(PasskeyWire.encode(stored), status: .created)
        }
    }

    /// GET /v1/session/passkeys: the signed-in person's passkeys, oldest first.
    func listMine(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.sessionScoped(request, context, action: "person.passkey.list") { principal, _ in
            guard let person = principal.person else { throw HTTPError.internal }
            return try await list(of: person.id)
        }
    }

    /// DELETE /v1/session/passkeys/{passkeyId}: removes one of the signed-in person's passkeys → 204; 404 when not theirs.
    func removeMine(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.sessionScoped(request, context, action: "person.passkey.remove") { principal, _ in
            guard let person = principal.person else { throw HTTPError.internal }
            return try await remove(try context.parameter("passkeyId"), of: person.id)
        }
    }

    /// GET /v1/people/{personId}/passkeys: a person's passkeys (an admin, or the person).
    func listPersons(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.personScoped(request, context, action: "admin.person.passkey.list") { _, personID in
            try await list(of: personID)
        }
    }

    /// DELETE /v1/people/{personId}/passkeys/{passkeyId}: removes one → 204 (an admin, or the person).
    func removePersons(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.personScoped(request, context, action: "admin.person.passkey.remove") { _, personID in
            try await remove(try context.parameter("passkeyId"), of: personID)
        }
    }

    /// The passkeys of `personID` as the list answer.
    private func list(of personID: String) async throws -> Response {
        let ceremonies = try passkeys.ceremonies()
        return Response.json(PasskeyWire.list(try await calls.blocking { try ceremonies.passkeys(of: personID) }))
    }

    /// Removes passkey `id` (base64url) of `personID` → 204, or 404.
    private func remove(_ id: String, of personID: String) async throws -> Response {
        let ceremonies = try passkeys.ceremonies()
        guard let credentialID = Base64URL.decode(id),
              try await calls.blocking({ try ceremonies.removePasskey(credentialID: credentialID, of: personID) }) else {
            throw HTTPError.notFound("No such passkey.")
        }
        return Response(status: .noContent)
    }

    /// 429 when this instance has too many ceremonies pending.
    static let busy = HTTPError.tooManyRequests("Too many passkey ceremonies are pending; retry in a minute.", retryAfter: 60)

    /// The optional `name` of a new passkey: 1–100 bytes without control or format characters; "Passkey" when absent.
    static func name(in body: JSONValue) throws -> String {
        guard let given = body["name"], given != .null else { return "Passkey" }
        guard let name = given.stringValue?.trimmingCharacters(in: .whitespaces), !name.isEmpty, name.utf8.count <= 100,
              !InvisibleCharacters.occur(in: name) else {
            throw HTTPError.invalidParameter("name", "must be 1–100 bytes without control or format characters")
        }
        return name
    }
}
