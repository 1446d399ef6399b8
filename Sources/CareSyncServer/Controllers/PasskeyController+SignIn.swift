import CareSyncCore
import CareSyncHTTP
import Foundation
import Logging

extension PasskeyController {
    /// The one answer to every failed passkey sign-in, whatever check failed (the reason is logged, not told).
    static let refused = HTTPError.unauthorized("The passkey sign-in was refused; start again.")

    /// POST /v1/sign-in/passkey/challenge: request options for `PublicKeyCredential.parseRequestOptionsFromJSON`, no
    /// `allowCredentials` (the authenticator offers its discoverable passkeys). Limited per client address.
    func beginSignIn(_ request: Request, _ context: APIContext) async throws -> Response {
        let address = Credentials(head: request.head, trusted: gate.trustedProxies).transport.address
        if let seconds = challengeBudget.spend(address) {
            gate.metrics.rateLimited(reason: "passkeyChallenge")
            throw HTTPError.tooManyRequests("Too many sign-ins begun from this address; retry later.", retryAfter: seconds)
        }
        do {
            let ceremonies = try passkeys.ceremonies()
            let options = try await calls.blocking { try ceremonies.beginSignIn() }
            return Response.json(Array(options.json.utf8))
        } catch PasskeyError.tooManyPendingCeremonies {
            throw Self.busy
        }
    }

    /// POST /v1/sign-in/passkey `{"credential": cred.toJSON()}`: verifies the assertion (WebAuthn §7.2) and signs its
    /// person in → 201 with the session cookie, as an invitation redemption does. Every refusal is the same 401 with
    /// nothing changed; attempts are limited per address and per credential; a counter that went back is logged and
    /// audited as a possible cloned authenticator.
    func finishSignIn(_ request: Request, _ context: APIContext) async throws -> Response {
        let credentials = Credentials(head: request.head, trusted: gate.trustedProxies)
        let body = try request.jsonBody()
        let response = PasskeyWire.credential(in: body).flatMap { try? PasskeyAssertionResponse(json: $0) }
        let account = response.map { "passkey:" + Base64URL.encode($0.credentialID) }
        let signIn = try await gate.signIn(credentials, account: account, action: "session.signIn.passkey") {
            guard let response else { throw Self.refused }
            return try await self.signIn(with: response, logger: context.logger)
        }
        return Response.json(PeopleWire.encode(signIn, idle: gate.people.policy.idleTimeout), status: .created,
                             headers: [.setCookie: SessionCookie.setting(signIn.secret, https: credentials.transport.https)])
    }

    /// Verifies `response` and starts a session for its active person; `refused` (logged, and audited as the
    /// credential's person when it names one) for anything else.
    private func signIn(with response: PasskeyAssertionResponse, logger: Logger) async throws -> SignIn {
        let ceremonies = try passkeys.ceremonies(), people = gate.people, now = clock.now()
        // Who the credential claims to be, read first: a deactivated person is refused before their counter moves.
        let claimed = try await calls.blocking { () -> PersonRecord? in
            guard let stored = try ceremonies.store.passkey(credentialID: response.credentialID) else { return nil }
            return try people.store.person(id: stored.personID)
        }
        do {
            guard claimed?.isActive ?? true else { throw Self.refused }
            let credential = try await calls.blocking { try ceremonies.finishSignIn(response) }
            guard let person = try await calls.blocking({ try people.store.person(id: credential.personID) }), person.isActive else {
                throw Self.refused
            }
            return try await calls.blocking { try people.startSession(for: person, now: now) }
        } catch let error as PasskeyError {
            var metadata: Logger.Metadata = ["reason": "\(error.code)", "person.id": "\(claimed?.id ?? "-")"]
            var action = "session.signIn.passkey"
            if case .signCountNotIncreased(let stored, let received) = error {
                metadata["passkey.storedCount"] = "\(stored)"; metadata["passkey.receivedCount"] = "\(received)"
                action = "session.signIn.passkey.possibleClone"
                logger.warning("passkey.possible_clone", metadata: metadata)
            } else {
                logger.info("passkey.sign_in_refused", metadata: metadata)
            }
            if let claimed {
                try await gate.audit.commit(AuditRecord(time: clock.now(), tokenID: Principal.personTokenID(claimed.id), role: claimed.role,
                                                        patient: nil, action: action, count: 0, status: 401))
            }
            throw Self.refused
        } catch let error as HTTPError where error.status == .unauthorized {
            logger.info("passkey.sign_in_refused", metadata: ["reason": "inactive-person", "person.id": "\(claimed?.id ?? "-")"])
            throw Self.refused
        }
    }
}
