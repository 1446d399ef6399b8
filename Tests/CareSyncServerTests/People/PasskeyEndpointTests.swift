import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// Passkey endpoints over a live socket: registration from a session, discoverable sign-in into a new session, and
/// every refusal of a sign-in the same 401 with nothing changed (counter, sessions); CSRF, rate limits, audit,
/// deactivation, the admin's view and the relying party's origins.
@Suite(.serialized) struct PasskeyEndpointTests {
    @Test func aSignedInPersonRegistersAPasskeyAndSignsInWithItIntoANewSession() async throws {
        try await TestServer.with(.live) { server in
            let session = try await server.signIn()
            let options = try await server.post("/v1/session/passkeys/challenge", as: session)
            #expect(options.status == 200, "\(options.text)")
            #expect(options.json["rp"]?["id"] == "localhost" && options.json["attestation"] == "none")
            #expect(options.json["authenticatorSelection"]?["residentKey"] == "required")
            #expect(options.json["authenticatorSelection"]?["userVerification"] == "required")
            #expect(options.json["pubKeyCredParams"]?.arrayValue?.compactMap { $0["alg"] } == [-7, -257])
            var authenticator = TestAuthenticator(origin: server.browserOrigin)
            let made = try await server.post("/v1/session/passkeys", as: session,
                                              json: authenticator.register(options.json, name: "Work laptop"))
            #expect(made.status == 201, "\(made.text)")
            #expect(made.json["id"]?.stringValue == authenticator.id && made.json["name"] == "Work laptop" && made.json["algorithm"] == "ES256")
            let mine = try await server.get("/v1/session/passkeys", as: session)
            #expect(mine.json["passkeys"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [authenticator.id])

            let request = try await server.send("POST", PasskeyController.signInChallengePath)
            #expect(request.status == 200 && request.json["allowCredentials"] == nil && request.json["userVerification"] == "required")
            #expect(request.json["rpId"] == "localhost")
            let signedIn = try await server.send("POST", PasskeyController.signInPath, json: try authenticator.assert(request.json))
            #expect(signedIn.status == 201, "\(signedIn.text)")
            let next = try TestServer.session(from: signedIn)
            #expect(next.personID == session.personID && next.sessionID != session.sessionID)
            #expect(try await server.get("/v1/session", as: next).json["person"]?["id"]?.stringValue == session.personID)
            let stored = try #require(try server.storedPasskey(authenticator))
            #expect(stored.signCount == 2 && stored.lastUsedAt != nil)
            let audit = try server.app.api.access.audit(AuditQuery(tokenID: Principal.personTokenID(session.personID), limit: 50))
            #expect(Set(audit.map(\.action)).isSuperset(of: ["person.passkey.challenge", "person.passkey.register", "session.signIn.passkey"]))
        }
    }

    @Test(arguments: Refusal.allCases)
    func everyBadSignInIsTheSame401AndChangesNothing(refusal: Refusal) async throws {
        let clock = ManualClock()
        try await TestServer.with(.live, clock: clock.serverClock) { server in
            let session = try await server.signIn()
            var authenticator = try await server.registeredAuthenticator(as: session)
            _ = try await server.passkeySignIn(&authenticator)  // the stored counter is 2 now
            let sessionsBefore = try server.app.api.access.sessions(person: session.personID).count
            let request = try await server.send("POST", PasskeyController.signInChallengePath)
            var body = try authenticator.assert(request.json, bend: refusal.bend)
            switch refusal {
            case .replayedFinish:
                #expect(try await server.send("POST", PasskeyController.signInPath, json: body).status == 201)
            case .expiredChallenge: clock.advance(by: 301)
            case .deactivatedPerson:
                let off = try await server.send("POST", "/v1/people/\(session.personID)/deactivate", token: server.tokens.admin)
                #expect(off.status == 200, "\(off.text)")
                let left = try await server.send("GET", "/v1/people/\(session.personID)/passkeys", token: server.tokens.admin)
                #expect(left.json["passkeys"]?.arrayValue?.isEmpty == true, "deactivation removes the passkeys: \(left.text)")
            case .unknownCredential:
                var stranger = TestAuthenticator(origin: server.browserOrigin)
                body = try stranger.assert(request.json)
            default: break
            }
            let counter = try server.storedPasskey(authenticator)?.signCount
            let reply = try await server.send("POST", PasskeyController.signInPath, json: body)
            reply.expectProblem(401, "unauthorized")
            #expect(reply.json["detail"] == "The passkey sign-in was refused; start again.")
            #expect(reply.header("Set-Cookie") == nil)
            #expect(try server.storedPasskey(authenticator)?.signCount == counter, "the counter did not move")
            let sessionsAfter = try server.app.api.access.sessions(person: session.personID).count
            #expect(sessionsAfter == sessionsBefore + (refusal == .replayedFinish ? 1 : 0), "no session was made")
            if refusal == .counterWentBack {
                let audit = try server.app.api.access.audit(AuditQuery(tokenID: Principal.personTokenID(session.personID), limit: 50))
                #expect(audit.contains { $0.action == "session.signIn.passkey.possibleClone" && $0.status == 401 })
            }
        }
    }

    /// One way a sign-in goes wrong.
    enum Refusal: String, CaseIterable, Sendable {
        case tamperedSignature, replayedFinish, unknownChallenge, expiredChallenge, wrongOrigin, wrongRelyingParty,
             counterWentBack, userNotVerified, unknownCredential, deactivatedPerson

        var bend: TestAuthenticator.Bend {
            var bend = TestAuthenticator.Bend()
            switch self {
            case .tamperedSignature: bend.flipSignatureBit = true
            case .unknownChallenge: bend.challenge = PasskeyChallenges.systemRandom(32)
            case .wrongOrigin: bend.origin = "https://caresync.evil.example"
            case .wrongRelyingParty: bend.rpID = "evil.example"
            case .counterWentBack: bend.signCount = 1
            case .userNotVerified: bend.flags = 0x01
            default: break
            }
            return bend
        }
    }

    @Test func aRegistrationFromAnotherOriginOrWithoutCSRFChangesNothing() async throws {
        try await TestServer.with(.live) { server in
            let session = try await server.signIn()
            let pending = try server.app.api.passkeys.challenges.pendingCount
            let foreign = [("Cookie", session.cookie), ("Origin", "https://evil.example"), ("X-CSRF-Token", session.csrfToken)]
            try await server.send("POST", "/v1/session/passkeys/challenge", headers: foreign).expectProblem(403, "forbidden")
            try await server.send("POST", "/v1/session/passkeys/challenge", headers: [("Cookie", session.cookie), ("Origin", server.origin)])
                .expectProblem(403, "forbidden")
            #expect(try server.app.api.passkeys.challenges.pendingCount == pending)
            var authenticator = TestAuthenticator(origin: server.browserOrigin)
            let options = try await server.post("/v1/session/passkeys/challenge", as: session)
            try await server.send("POST", "/v1/session/passkeys", json: authenticator.register(options.json), headers: foreign)
                .expectProblem(403, "forbidden")
            // The page's origin in clientDataJSON is not an allowed one: 422, nothing stored.
            var elsewhere = TestAuthenticator(origin: "http://127.0.0.1:\(server.port)")
            let again = try await server.post("/v1/session/passkeys/challenge", as: session)
            try await server.post("/v1/session/passkeys", as: session, json: elsewhere.register(again.json)).expectProblem(422, "validationFailed")
            #expect(try server.app.api.passkeys.store?.passkeys(person: session.personID).isEmpty == true)
            // A bearer token has no session to register a passkey for.
            try await server.send("POST", "/v1/session/passkeys/challenge", token: server.tokens.therapist).expectProblem(403, "forbidden")
        }
    }

    @Test func passkeysAreListedAndRemovedByTheirPersonOrAnAdminAndARemovedOneSignsNoOneIn() async throws {
        try await TestServer.with(.live) { server in
            let session = try await server.signIn()
            var first = try await server.registeredAuthenticator(as: session)
            let second = try await server.registeredAuthenticator(as: session)
            let other = try await server.signIn()
            let listed = try await server.send("GET", "/v1/people/\(session.personID)/passkeys", token: server.tokens.admin)
            #expect(listed.json["passkeys"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [first.id, second.id], "\(listed.text)")
            try await server.get("/v1/people/\(session.personID)/passkeys", as: other).expectProblem(404, "notFound")
            try await server.delete("/v1/session/passkeys/\(first.id)", as: other).expectProblem(404, "notFound")
            try await server.delete("/v1/session/passkeys/not*base64", as: session).expectProblem(404, "notFound")
            let removed = try await server.delete("/v1/session/passkeys/\(first.id)", as: session)
            #expect(removed.status == 204, "\(removed.text)")
            let request = try await server.send("POST", PasskeyController.signInChallengePath)
            try await server.send("POST", PasskeyController.signInPath, json: try first.assert(request.json)).expectProblem(401, "unauthorized")
            let byAdmin = try await server.send("DELETE", "/v1/people/\(session.personID)/passkeys/\(second.id)", token: server.tokens.admin)
            let remaining = try server.app.api.passkeys.store?.passkeys(person: session.personID)
            #expect(byAdmin.status == 204 && remaining?.isEmpty == true)
        }
    }

    @Test func failedSignInsAndBegunSignInsAreLimitedPerAddress() async throws {
        try await TestServer.with(.live, configure: { $0.rateLimits.failedAuthBurst = 3; $0.rateLimits.failedAuthPerMinute = 1 }) { server in
            let session = try await server.signIn()
            var authenticator = try await server.registeredAuthenticator(as: session)
            for _ in 0..<3 {
                let request = try await server.send("POST", PasskeyController.signInChallengePath)
                var bend = TestAuthenticator.Bend()
                bend.flipSignatureBit = true
                try await server.send("POST", PasskeyController.signInPath, json: try authenticator.assert(request.json, bend: bend))
                    .expectProblem(401, "unauthorized")
            }
            // Beginning is limited too (each begin holds a challenge), so the honest attempt below reuses no budget.
            try await server.send("POST", PasskeyController.signInChallengePath).expectProblem(429, "tooManyRequests")
            try await server.send("POST", PasskeyController.signInPath, json: try authenticator.assert(["challenge": "AAAA"]))
                .expectProblem(429, "tooManyRequests")
        }
    }

    @Test func theRelyingPartysOriginsAreConfiguredDerivedOrTheListenersLocalhost() async throws {
        try await TestServer.with(.live) { server in
            #expect(server.app.api.passkeys.currentRelyingParty.origins == ["http://localhost:\(server.port)"])
            let methods = try await server.send("GET", "/v1/sign-in/methods")
            #expect(methods.status == 200 && methods.json == ["passkeys": true, "openIDConnect": .null], "\(methods.text)")
        }
        try await TestServer.with(.live, configure: { $0.publicOrigins = ["https://care.clinic.example/app"] }) { server in
            #expect(server.app.api.passkeys.currentRelyingParty.origins == ["https://care.clinic.example"])
        }
        try await TestServer.with(.live, configure: {
            $0.publicOrigins = ["https://care.clinic.example"]; $0.webAuthn.origins = ["https://sign-in.clinic.example"]
            $0.webAuthn.relyingPartyID = "clinic.example"
        }) { server in
            let party = server.app.api.passkeys.currentRelyingParty
            #expect(party.origins == ["https://sign-in.clinic.example"] && party.id == "clinic.example")
        }
        #expect(throws: ConfigurationError.self) { try Configuration.load(environment: ["CARESYNC_WEB_AUTHN_RELYING_PARTY_ID": "127.0.0.1"]) }
        #expect(throws: ConfigurationError.self) { try Configuration.load(environment: ["CARESYNC_WEB_AUTHN_ORIGINS": "https://a.example/path"]) }
    }
}

extension TestServer {
    /// The origin of a page opened at `http://localhost:<port>`, as its `clientDataJSON` names it.
    var browserOrigin: String { "http://localhost:\(port)" }

    /// A POST with `session`'s cookie, its page's Origin and its CSRF token.
    func post(_ path: String, as session: BrowserSession, json: JSONValue? = nil) async throws -> TestReply {
        try await send("POST", path, json: json, headers: session.headers(unsafe: true, origin: origin))
    }

    /// A DELETE with `session`'s cookie, its page's Origin and its CSRF token.
    func delete(_ path: String, as session: BrowserSession) async throws -> TestReply {
        try await send("DELETE", path, headers: session.headers(unsafe: true, origin: origin))
    }

    /// A new authenticator with a passkey registered for `session`'s person.
    func registeredAuthenticator(as session: BrowserSession) async throws -> TestAuthenticator {
        var authenticator = TestAuthenticator(origin: browserOrigin)
        let options = try await post("/v1/session/passkeys/challenge", as: session)
        let made = try await post("/v1/session/passkeys", as: session, json: authenticator.register(options.json))
        #expect(made.status == 201, "\(made.text)")
        return authenticator
    }

    /// A whole honest sign-in with `authenticator`.
    func passkeySignIn(_ authenticator: inout TestAuthenticator) async throws -> TestReply {
        let request = try await send("POST", PasskeyController.signInChallengePath)
        let reply = try await send("POST", PasskeyController.signInPath, json: try authenticator.assert(request.json))
        #expect(reply.status == 201, "\(reply.text)")
        return reply
    }

    /// The stored record of `authenticator`'s credential.
    func storedPasskey(_ authenticator: TestAuthenticator) throws -> PasskeyCredential? {
        try app.api.passkeys.store?.passkey(credentialID: authenticator.credentialID)
    }
}
