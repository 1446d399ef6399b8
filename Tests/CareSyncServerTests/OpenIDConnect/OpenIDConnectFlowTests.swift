import CareSyncCore
import CareSyncHTTP
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// The sign-in flow against an in-process provider (`FakeProvider`) over real sockets: start, callback, session;
/// the invitation accepted through the provider; replayed and forged callbacks; key rotation by `kid`.
@Suite(.serialized) struct OpenIDConnectFlowTests {
    static let clientID = "caresync"

    /// Runs `body` with a provider and a server configured for it (confidential client), on a movable clock.
    func withProvider(_ body: (TestServer, FakeProvider, ManualClock) async throws -> Void) async throws {
        let provider = try FakeProvider()
        let clock = ManualClock()
        do {
            try await TestServer.with(clock: clock.serverClock, configure: {
                $0.oidc.issuer = provider.issuer; $0.oidc.clientID = Self.clientID; $0.oidc.clientSecret = "s3cret"
            }) { try await body($0, provider, clock) }
        } catch {
            await provider.stop()
            throw error
        }
        await provider.stop()
    }

    /// A sign-in begun: the binding cookie and the authorization request's query.
    struct Begun {
        var cookie: String
        var query: [String: String]
        var state: String { query["state"] ?? "" }
    }

    /// Begins a sign-in: a GET of the start URL, or, with an invitation, the POST the web app's invitation page sends
    /// (from the server's own origin), whose answer names the URL the page navigates to.
    func begin(_ server: TestServer, _ provider: FakeProvider, invitation: String? = nil, returnTo: String? = nil) async throws -> Begun {
        let reply: TestReply, location: String
        if let invitation {
            var body: [String: JSONValue] = ["invitation": .string(invitation)]
            body["returnTo"] = returnTo.map(JSONValue.string)
            reply = try await server.send("POST", "/v1/oidc/start", json: .object(body), headers: [("Origin", server.origin)])
            #expect(reply.status == 200, "\(reply.text)")
            location = try #require(reply.json["authorizationUrl"]?.stringValue)
        } else {
            reply = try await server.send("GET", "/v1/oidc/start" + (returnTo.map { "?returnTo=\($0)" } ?? ""))
            #expect(reply.status == 302, "\(reply.text)")
            location = try #require(reply.header("Location"))
        }
        #expect(location.hasPrefix(provider.issuer + "/authorize?"))
        let items = URLComponents(string: location)?.queryItems ?? []
        let query = Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        provider.challenge.update { $0 = query["code_challenge"] }
        let cookie = String(try #require(reply.header("Set-Cookie")?.split(separator: ";").first))
        return Begun(cookie: cookie, query: query)
    }

    /// Prepares the token endpoint's next ID token for `begun`, with claims changed by `changes`.
    func prepare(_ provider: FakeProvider, _ begun: Begun, key: FakeProvider.Key, now: Date, subject: String = "sub-1",
                 changes: [String: JSONValue] = [:]) {
        var claims: [String: JSONValue] = ["iss": .string(provider.issuer), "sub": .string(subject), "aud": .string(Self.clientID),
                                           "nonce": .string(begun.query["nonce"] ?? ""), "iat": .number(now.timeIntervalSince1970),
                                           "exp": .number(now.timeIntervalSince1970 + 300)]
        claims.merge(changes) { $1 }
        provider.next.update { $0 = FakeProvider.NextToken(claims: .object(claims), key: key) }
    }

    func callback(_ server: TestServer, _ begun: Begun, state: String? = nil, cookie: String? = nil) async throws -> TestReply {
        try await server.send("GET", "/v1/oidc/callback?code=c0de&state=\(state ?? begun.state)",
                              headers: [("Cookie", cookie ?? begun.cookie)])
    }

    @Test func withoutAnIssuerThereIsNoOpenIDConnect() async throws {
        try await TestServer.with { server in
            let methods = try await server.send("GET", "/v1/sign-in/methods")
            #expect(methods.status == 200)
            #expect(methods.json["openIDConnect"] == .null)
            #expect(methods.json["passkeys"] == .bool(true))
            let start = try await server.send("GET", "/v1/oidc/start")
            #expect(start.status == 404)
        }
    }

    @Test func anInvitationAcceptedThroughTheProviderSignsInAndLinks() async throws {
        try await withProvider { server, provider, clock in
            let methods = try await server.send("GET", "/v1/sign-in/methods")
            #expect(methods.json["openIDConnect"]?["start"] == "/v1/oidc/start")
            let key = FakeProvider.Key.make("k1")
            provider.published.update { $0 = [key] }
            let begun = try await begin(server, provider, invitation: try await server.invite())
            #expect(begun.query["code_challenge_method"] == "S256")
            #expect(begun.query["redirect_uri"] == server.origin + "/v1/oidc/callback")
            prepare(provider, begun, key: key, now: clock.now())
            let reply = try await callback(server, begun)
            #expect(reply.status == 303, "\(reply.text)")
            #expect(reply.header("Location") == "/")
            let basic = provider.tokenRequests.last?.headers["authorization"]
            #expect(basic == "Basic " + Data("caresync:s3cret".utf8).base64EncodedString())
            let cookie = try #require(reply.headers.first { $0.0.lowercased() == "set-cookie" && $0.1.hasPrefix("caresync_session=") }?.1)
            let session = try await server.send("GET", "/v1/session", headers: [("Cookie", String(cookie.split(separator: ";")[0]))])
            #expect(session.status == 200)
            let person = try #require(session.json["person"]?["id"]?.stringValue)
            let identities = try await server.send("GET", "/v1/people/\(person)/identities", token: server.tokens.admin)
            #expect(identities.json["identities"]?.arrayValue?.map { $0["subject"] } == ["sub-1"])

            // The same callback again: its state is used.
            let replay = try await callback(server, begun)
            replay.expectProblem(401, "unauthorized")
        }
    }

    /// Behind a load balancer without session affinity: the provider's redirect reaches another instance over the same
    /// database than the one that began the sign-in, and it finishes there, once.
    @Test func aSignInBegunOnOneInstanceFinishesOnAnother() async throws {
        try await withProvider { server, provider, clock in
            let key = FakeProvider.Key.make("k1")
            provider.published.update { $0 = [key] }
            let begun = try await begin(server, provider, invitation: try await server.invite())
            prepare(provider, begun, key: key, now: clock.now())
            try await TestServer.withInstance(server.app.configuration, clock: clock.serverClock) { _, port in
                let path = "/v1/oidc/callback?code=c0de&state=\(begun.state)", cookie = [("Cookie", begun.cookie)]
                let reply = try await TestHTTPClient.send(port: port, method: "GET", path: path, headers: cookie)
                #expect(reply.status == 303, "\(reply.text)")
                #expect(reply.headers.contains { $0.0.lowercased() == "set-cookie" && $0.1.hasPrefix("caresync_session=") })
                #expect(provider.tokenRequests.count == 1)
                try await callback(server, begun).expectProblem(401, "unauthorized")
            }
        }
    }

    /// A sign-in is accepted for ten minutes after its start, to the millisecond, and refused from then on.
    @Test func aSignInIsRefusedTenMinutesAfterItsStart() async throws {
        try await withProvider { server, provider, clock in
            let key = FakeProvider.Key.make("k1")
            provider.published.update { $0 = [key] }
            let late = try await begin(server, provider)
            let inTime = try await begin(server, provider, invitation: try await server.invite())
            clock.advance(by: 599.999)
            prepare(provider, inTime, key: key, now: clock.now())
            #expect(try await callback(server, inTime).status == 303)
            clock.advance(by: 0.001)
            prepare(provider, late, key: key, now: clock.now())
            try await callback(server, late).expectProblem(401, "unauthorized")
            #expect(provider.tokenRequests.count == 1)
        }
    }

    @Test func forgedCallbacksAreRefusedWithNothingStored() async throws {
        try await withProvider { server, provider, clock in
            let key = FakeProvider.Key.make("k1")
            provider.published.update { $0 = [key] }
            let begun = try await begin(server, provider, invitation: try await server.invite())
            prepare(provider, begun, key: key, now: clock.now())
            try await callback(server, begun, state: SessionSecret.generate()).expectProblem(401, "unauthorized")
            try await callback(server, begun, cookie: "caresync_oidc=\(SessionSecret.generate())").expectProblem(401, "unauthorized")
            // The state was taken by the attempt without its cookie: the right browser cannot use it either now.
            try await callback(server, begun).expectProblem(401, "unauthorized")
            let people = try await server.send("GET", "/v1/people", token: server.tokens.admin)
            #expect(people.json["people"]?.arrayValue?.isEmpty == true)
            #expect(provider.tokenRequests.isEmpty)
            let audit = try await server.send("GET", "/v1/audit?token=-", token: server.tokens.admin)
            #expect(audit.json["records"]?.arrayValue?.filter { $0["action"] == "session.signIn.oidc" && $0["status"] == 401 }.count == 3)
        }
    }

    /// An invitation's secret never travels in a URL, and the POST start refuses another site's page and bodies other
    /// than its JSON object: each refusal stores no sign-in and sets no cookie. The body's `returnTo` is kept as the
    /// query's is.
    @Test func anInvitationIsPostedNeverPutInTheURL() async throws {
        try await withProvider { server, provider, clock in
            let secret = try await server.invite()
            let invitation: JSONValue = ["invitation": .string(secret)]
            let refusals: [(TestReply, Int, String)] = [
                (try await server.send("GET", "/v1/oidc/start?invitation=\(secret)"), 422, "validationFailed"),
                (try await server.send("POST", "/v1/oidc/start?invitation=\(secret)", json: [:]), 422, "validationFailed"),
                (try await server.send("POST", "/v1/oidc/start", json: invitation, headers: [("Origin", "https://evil.example")]),
                 403, "forbidden"),
                (try await server.send("POST", "/v1/oidc/start", body: Array("invitation=\(secret)".utf8),
                                       headers: [("Content-Type", "application/x-www-form-urlencoded")]), 415, "unsupportedMediaType"),
                (try await server.send("POST", "/v1/oidc/start", json: ["invitation": "short"]), 422, "validationFailed"),
                (try await server.send("POST", "/v1/oidc/start", json: ["invitation": 7]), 422, "validationFailed"),
                (try await server.send("POST", "/v1/oidc/start", json: [.string(secret)]), 422, "validationFailed"),
                (try await server.send("POST", "/v1/oidc/start", json: ["invitation": .string(secret), "returnTo": "https://evil.example"]),
                 422, "validationFailed"),
            ]
            for (reply, status, code) in refusals {
                reply.expectProblem(status, code)
                #expect(reply.header("Set-Cookie") == nil)
            }
            #expect(try server.app.backend.ceremonies.ceremonyCount(kind: .openIDConnect) == 0)

            let key = FakeProvider.Key.make("k1")
            provider.published.update { $0 = [key] }
            let begun = try await begin(server, provider, invitation: secret, returnTo: "/#patients")
            #expect(try server.app.backend.ceremonies.ceremonyCount(kind: .openIDConnect) == 1)
            prepare(provider, begun, key: key, now: clock.now())
            let signedIn = try await callback(server, begun)
            #expect(signedIn.status == 303, "\(signedIn.text)")
            #expect(signedIn.header("Location") == "/#patients")
        }
    }

    @Test func anUnknownIdentityIsRefused() async throws {
        try await withProvider { server, provider, clock in
            let key = FakeProvider.Key.make("k1")
            provider.published.update { $0 = [key] }
            let begun = try await begin(server, provider)
            prepare(provider, begun, key: key, now: clock.now(), subject: "nobody")
            let reply = try await callback(server, begun)
            reply.expectProblem(401, "unauthorized")
            #expect(reply.json["detail"]?.stringValue?.contains("No CareSync person is linked") == true)
        }
    }

    @Test func aRotatedKeyIsFetchedOnceAndFurtherUnknownKidsWaitForTheInterval() async throws {
        try await withProvider { server, provider, clock in
            let old = FakeProvider.Key.make("2025"), rotated = FakeProvider.Key.make("2026")
            provider.published.update { $0 = [old] }
            var begun = try await begin(server, provider, invitation: try await server.invite())
            prepare(provider, begun, key: old, now: clock.now())
            #expect(try await callback(server, begun).status == 303)
            #expect(provider.jwksFetches == 1)

            provider.published.update { $0 = [old, rotated] }
            clock.advance(by: 61)
            begun = try await begin(server, provider)
            prepare(provider, begun, key: rotated, now: clock.now())
            let signedIn = try await callback(server, begun)
            #expect(signedIn.status == 303, "\(signedIn.text)")
            #expect(provider.jwksFetches == 2)

            begun = try await begin(server, provider)
            prepare(provider, begun, key: FakeProvider.Key.make("2027"), now: clock.now())
            let refused = try await callback(server, begun)
            refused.expectProblem(401, "unauthorized")
            #expect(refused.json["detail"]?.stringValue?.contains("(unknownKey)") == true)
            #expect(provider.jwksFetches == 2)
        }
    }

    @Test func anAdminLinksAnIdentityThatThenSignsIn() async throws {
        try await withProvider { server, provider, clock in
            let key = FakeProvider.Key.make("k1")
            provider.published.update { $0 = [key] }
            let person = try #require(try await server.redeem(try await server.invite(role: "admin", careTeams: [])).json["person"]?["id"]?.stringValue)
            let path = "/v1/people/\(person)/identities"
            try await server.send("POST", path, token: server.tokens.admin, json: [:]).expectProblem(422, "validationFailed")
            try await server.send("POST", path, token: server.tokens.therapist, json: ["subject": "sub-9"]).expectProblem(403, "forbidden")
            let linked = try await server.send("POST", path, token: server.tokens.admin, json: ["subject": "sub-9"])
            #expect(linked.status == 201, "\(linked.text)")
            #expect(linked.json["issuer"] == .string(provider.issuer))
            try await server.send("POST", path, token: server.tokens.admin, json: ["subject": "sub-9"]).expectProblem(409, "conflict")
            var begun = try await begin(server, provider)
            prepare(provider, begun, key: key, now: clock.now(), subject: "sub-9")
            #expect(try await callback(server, begun).status == 303)

            let id = try #require(linked.json["id"]?.stringValue)
            #expect(try await server.send("DELETE", "\(path)/\(id)", token: server.tokens.admin).status == 204)
            begun = try await begin(server, provider)
            prepare(provider, begun, key: key, now: clock.now(), subject: "sub-9")
            try await callback(server, begun).expectProblem(401, "unauthorized")

            #expect(try await server.send("POST", path, token: server.tokens.admin, json: ["subject": "sub-9"]).status == 201)
            #expect(try await server.send("POST", "/v1/people/\(person)/deactivate", token: server.tokens.admin).status == 200)
            begun = try await begin(server, provider)
            prepare(provider, begun, key: key, now: clock.now(), subject: "sub-9")
            let refused = try await callback(server, begun)
            refused.expectProblem(401, "unauthorized")
            #expect(refused.json["detail"]?.stringValue?.contains("deactivated") == true)
        }
    }

    @Test(arguments: ["/", "/#patients", "/invite"])
    func aSameOriginReturnPathIsKept(path: String) throws {
        #expect(try OIDCController.returnPath(path) == path)
    }

    @Test(arguments: ["//evil.example", "https://evil.example/", "/\\evil.example", "evil", "/a b", ""])
    func anyOtherReturnPathIsRefused(path: String) {
        #expect(throws: HTTPError.self) { try OIDCController.returnPath(path) }
    }
}
