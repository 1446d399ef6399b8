import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// Browser sessions against OWASP ASVS V3 over a live socket: fixation, cookie attributes, timeouts with an injected
/// clock, sign-out, deactivation, CSRF, and no session secret in the audit log.
@Suite(.serialized) struct SessionSecurityTests {
    @Test func aSignInAlwaysMakesANewSessionIDAndNeverAdoptsOneTheBrowserBrings() async throws {
        try await TestServer.with(.live) { server in
            let planted = "caresync_session=" + SessionSecret.generate()
            let reply = try await server.redeem(try await server.invite(), headers: [("Cookie", planted)])
            #expect(reply.status == 201, "\(reply.text)")
            let session = try TestServer.session(from: reply)
            #expect(session.cookie != planted)
            let again = try await server.signIn()
            #expect(again.cookie != session.cookie && again.sessionID != session.sessionID)
            // The planted value names no session.
            try await server.send("GET", "/v1/session", headers: [("Cookie", planted)]).expectProblem(401, "unauthorized")
            #expect(try await server.get("/v1/session", as: session).status == 200)
        }
    }

    @Test func onLoopbackHTTPTheCookieIsPlainHttpOnlyAndLax() async throws {
        try await TestServer.with(.live) { server in
            // From a peer that is not a trusted proxy, X-Forwarded-Proto is ignored: still plain http.
            let reply = try await server.redeem(try await server.invite(), headers: [("X-Forwarded-Proto", "https")])
            let setCookie = try #require(reply.header("Set-Cookie"))
            #expect(setCookie.hasPrefix("caresync_session="))
            #expect(setCookie.hasSuffix("; Path=/; HttpOnly; SameSite=Lax"), "\(setCookie)")
            #expect(!setCookie.contains("Secure"))
        }
    }

    @Test func behindATrustedHTTPSProxyTheCookieIsSecureWithTheHostPrefix() async throws {
        try await TestServer.with(.live, configure: { $0.trustedProxies = [AddressRange("127.0.0.1/32")!] }) { server in
            let https = [("X-Forwarded-Proto", "https"), ("X-Forwarded-For", "203.0.113.9")]
            let reply = try await server.redeem(try await server.invite(), headers: https)
            #expect(reply.status == 201, "\(reply.text)")
            let setCookie = try #require(reply.header("Set-Cookie"))
            #expect(setCookie.hasPrefix("__Host-caresync_session="))
            #expect(setCookie.hasSuffix("; Path=/; HttpOnly; SameSite=Lax; Secure"), "\(setCookie)")
            let session = try TestServer.session(from: reply)
            #expect(try await server.get("/v1/session", as: session, headers: https).status == 200)
            // The __Host- cookie is not read on plain http.
            #expect(try await server.get("/v1/session", as: session).status == 401)
            // The https origin is the allowed one for the CSRF check.
            let out = try await server.send("POST", "/v1/session/sign-out",
                                            headers: [("Cookie", session.cookie), ("Origin", "https://127.0.0.1:\(server.port)"),
                                                      ("X-CSRF-Token", session.csrfToken)] + https)
            #expect(out.status == 204, "\(out.text)")
            #expect(out.header("Set-Cookie")?.contains("Max-Age=0") == true)
        }
    }

    @Test func idleAndAbsoluteTimeoutsEndASessionOnTheInjectedClock() async throws {
        let clock = ManualClock()
        try await TestServer.with(.live, clock: clock.serverClock) { server in
            let session = try await server.signIn()
            clock.advance(by: 29 * 60)
            #expect(try await server.get("/v1/session", as: session).status == 200)
            // Used at 29 minutes: idle counts from there.
            clock.advance(by: 29 * 60)
            #expect(try await server.get("/v1/patients/alice/goals", as: session).status == 200)
            clock.advance(by: 31 * 60)
            try await server.get("/v1/session", as: session).expectProblem(401, "unauthorized")

            let busy = try await server.signIn()
            for _ in 0..<24 {  // used every 29 minutes, 11 h 36 min in all
                clock.advance(by: 29 * 60)
                #expect(try await server.get("/v1/session", as: busy).status == 200)
            }
            clock.advance(by: 25 * 60)  // 12 h 1 min after sign-in
            try await server.get("/v1/session", as: busy).expectProblem(401, "unauthorized")
        }
    }

    @Test func signOutEndsTheSessionOnTheServer() async throws {
        try await TestServer.with(.live) { server in
            let session = try await server.signIn()
            let out = try await server.send("POST", "/v1/session/sign-out", headers: session.headers(unsafe: true, origin: server.origin))
            #expect(out.status == 204, "\(out.text)")
            #expect(out.header("Set-Cookie") == "caresync_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax")
            // The browser keeps the old cookie: the server refuses it.
            try await server.get("/v1/session", as: session).expectProblem(401, "unauthorized")
            try await server.get("/v1/patients/alice/goals", as: session).expectProblem(401, "unauthorized")
        }
    }

    @Test func deactivationEndsEverySessionAtOnce() async throws {
        try await TestServer.with(.live) { server in
            let first = try await server.signIn()
            let listed = try await server.send("GET", "/v1/people/\(first.personID)/sessions", token: server.tokens.admin)
            #expect(listed.json["sessions"]?.arrayValue?.count == 1)
            let off = try await server.send("POST", "/v1/people/\(first.personID)/deactivate", token: server.tokens.admin)
            #expect(off.status == 200 && off.json["deactivatedAt"]?.stringValue != nil, "\(off.text)")
            try await server.get("/v1/session", as: first).expectProblem(401, "unauthorized")
            let sessions = try await server.send("GET", "/v1/people/\(first.personID)/sessions", token: server.tokens.admin)
            #expect(sessions.json["sessions"]?[0]?["endedAt"]?.stringValue != nil)
        }
    }

    @Test func aPersonRevokesTheirOtherSessionAndAnotherPersonCannot() async throws {
        try await TestServer.with(.live) { server in
            let phone = try await server.signIn(role: "admin", careTeams: [])
            let stranger = try await server.signIn()
            // A therapist cannot see or end an admin's sessions: 404.
            try await server.send("GET", "/v1/people/\(phone.personID)/sessions", headers: stranger.headers(origin: server.origin))
                .expectProblem(404, "notFound")
            try await server.send("DELETE", "/v1/people/\(phone.personID)/sessions/\(phone.sessionID)",
                                  headers: stranger.headers(unsafe: true, origin: server.origin)).expectProblem(404, "notFound")
            #expect(try await server.get("/v1/session", as: phone).status == 200)
            let own = try await server.send("DELETE", "/v1/people/\(stranger.personID)/sessions/\(stranger.sessionID)",
                                            headers: stranger.headers(unsafe: true, origin: server.origin))
            #expect(own.status == 204, "\(own.text)")
            #expect(try await server.get("/v1/session", as: stranger).status == 401)
        }
    }

    @Test func anUnsafeRequestFromAnotherOriginOrWithoutTheTokenIsRefusedAndChangesNothing() async throws {
        try await TestServer.with(.live) { server in
            let session = try await server.signIn()
            let goal: JSONValue = ["target": 5000]
            let evil = [("Cookie", session.cookie), ("Origin", "http://evil.example"), ("X-CSRF-Token", session.csrfToken)]
            try await server.send("PUT", "/v1/patients/alice/goals/dailySteps", json: goal, headers: evil).expectProblem(403, "forbidden")
            let noToken = [("Cookie", session.cookie), ("Origin", server.origin)]
            try await server.send("PUT", "/v1/patients/alice/goals/dailySteps", json: goal, headers: noToken).expectProblem(403, "forbidden")
            let noOrigin = [("Cookie", session.cookie), ("X-CSRF-Token", session.csrfToken)]
            try await server.send("PUT", "/v1/patients/alice/goals/dailySteps", json: goal, headers: noOrigin).expectProblem(403, "forbidden")
            try await server.send("POST", "/v1/session/sign-out", headers: evil).expectProblem(403, "forbidden")
            #expect(try server.app.backend.monitoring.goals(patient: "alice").isEmpty)
            #expect(try await server.get("/v1/session", as: session).status == 200)
            // The same write from the page's origin with its token goes through.
            let ok = try await server.send("PUT", "/v1/patients/alice/goals/dailySteps", json: goal,
                                           headers: session.headers(unsafe: true, origin: server.origin))
            #expect(ok.status == 200, "\(ok.text)")
            // A bearer token needs neither.
            let bearer = try await server.send("PUT", "/v1/patients/alice/goals/dailySteps", token: server.tokens.therapist, json: goal,
                                               headers: [("Origin", "http://evil.example")])
            #expect(bearer.status == 200, "\(bearer.text)")
        }
    }

    @Test func noSessionSecretOrIDReachesTheAuditLog() async throws {
        try await TestServer.with(.live) { server in
            let session = try await server.signIn()
            _ = try await server.get("/v1/patients/alice/goals", as: session)
            _ = try await server.send("POST", "/v1/session/sign-out", headers: session.headers(unsafe: true, origin: server.origin))
            let records = try server.app.api.access.audit(AuditQuery(limit: 1000))
            let mine = records.filter { $0.tokenID == "p:" + session.personID }
            #expect(Set(mine.map(\.action)).isSuperset(of: ["session.signIn.invitation", "goals.read", "session.signOut"]), "\(mine.map(\.action))")
            let secret = String(session.cookie.split(separator: "=")[1])
            let text = "\(records)"
            #expect(!text.contains(secret) && !text.contains(session.sessionID) && !text.contains(session.csrfToken))
        }
    }
}
