import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// Invitations over a live socket: single use, expiry, wrong secrets refused alike, rate limits by the real client
/// address, the admin API's validation, and a session reaching exactly what a therapist token of its teams reaches.
@Suite(.serialized) struct InvitationEndpointTests {
    @Test func anInvitationWorksOnceAndWrongOrExpiredOnesAreRefusedAlike() async throws {
        let clock = ManualClock()
        try await TestServer.with(.live, clock: clock.serverClock) { server in
            let secret = try await server.invite()
            #expect(try await server.redeem(secret).status == 201)
            try await server.redeem(secret).expectProblem(401, "unauthorized")
            try await server.redeem(SessionSecret.generate()).expectProblem(401, "unauthorized")
            try await server.redeem("not-a-secret").expectProblem(401, "unauthorized")
            let late = try await server.invite()
            clock.advance(by: 72 * 3600 + 1)  // stored times are whole milliseconds
            try await server.redeem(late).expectProblem(401, "unauthorized")
            let people = try await server.send("GET", "/v1/people", token: server.tokens.admin)
            #expect(people.json["people"]?.arrayValue?.count == 1, "\(people.text)")
        }
    }

    @Test func theAdminAPIValidatesAndShowsTheLinkOnce() async throws {
        try await TestServer.with(.live, configure: { $0.publicOrigins = ["https://caresync.example.org"] }) { server in
            let admin = server.tokens.admin
            let made = try await server.send("POST", "/v1/people/invitations", token: admin, json: ["role": "admin"])
            #expect(made.status == 201, "\(made.text)")
            let secret = try #require(made.json["secret"]?.stringValue)
            #expect(made.json["link"]?.stringValue == "https://caresync.example.org/invite#" + secret)
            #expect(made.json["invitation"]?["expiresAt"]?.stringValue != nil && made.json["invitation"]?["secret"] == nil)
            try await server.send("POST", "/v1/people/invitations", token: admin, json: ["role": "device"]).expectProblem(422, "validationFailed")
            try await server.send("POST", "/v1/people/invitations", token: admin, json: ["role": "therapist"]).expectProblem(422, "validationFailed")
            try await server.send("POST", "/v1/people/invitations", token: admin, json: ["role": "therapist", "careTeams": ["nope"]])
                .expectProblem(422, "validationFailed")
            try await server.send("POST", "/v1/people/invitations", token: server.tokens.therapist, json: ["role": "admin"])
                .expectProblem(403, "forbidden")
            #expect(try server.app.api.access.invitations().count == 1)
        }
    }

    @Test func aTherapistSessionReachesWhatATherapistTokenOfItsTeamsReaches() async throws {
        try await TestServer.with(.live) { server in
            let session = try await server.signIn(careTeams: ["physio"])
            for path in ["/v1/patients/alice/goals", "/v1/patients/alice/changes", "/v1/patients/alice/status", "/v1/patients"] {
                let bySession = try await server.get(path, as: session)
                let byToken = try await server.send("GET", path, token: server.tokens.therapist)
                #expect(bySession.status == 200 && byToken.status == 200, "\(path): \(bySession.text)")
            }
            let patients = try await server.get("/v1/patients", as: session)
            #expect(patients.json["patients"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["alice"])
            try await server.get("/v1/patients/bob/goals", as: session).expectProblem(404, "notFound")
            try await server.get("/v1/tokens", as: session).expectProblem(403, "forbidden")
            let admin = try await server.signIn(role: "admin", careTeams: [])
            #expect(try await server.get("/v1/tokens", as: admin).status == 200)
            try await server.get("/v1/patients/alice/goals", as: admin).expectProblem(404, "notFound")
        }
    }

    @Test func redemptionAttemptsAreLimitedPerRealAddressWhateverXForwardedForSays() async throws {
        try await TestServer.with(.live, configure: { $0.rateLimits.failedAuthBurst = 3; $0.rateLimits.failedAuthPerMinute = 1 }) { server in
            let good = try await server.invite()
            for n in 0..<3 {
                try await server.redeem(SessionSecret.generate(), headers: [("X-Forwarded-For", "198.51.100.\(n)")]).expectProblem(401, "unauthorized")
            }
            try await server.redeem(good, headers: [("X-Forwarded-For", "198.51.100.77")]).expectProblem(429, "tooManyRequests")
        }
    }

    @Test func behindATrustedProxyTheForwardedAddressIsTheKey() async throws {
        try await TestServer.with(.live, configure: {
            $0.rateLimits.failedAuthBurst = 2; $0.rateLimits.failedAuthPerMinute = 1; $0.trustedProxies = [AddressRange("127.0.0.0/8")!]
        }) { server in
            let https = [("X-Forwarded-Proto", "https")]
            for _ in 0..<2 {
                try await server.redeem(SessionSecret.generate(), headers: https + [("X-Forwarded-For", "198.51.100.1")]).expectProblem(401, "unauthorized")
            }
            try await server.redeem(SessionSecret.generate(), headers: https + [("X-Forwarded-For", "198.51.100.1")]).expectProblem(429, "tooManyRequests")
            // Another client behind the same proxy has its own budget.
            let other = try await server.redeem(try await server.invite(), headers: https + [("X-Forwarded-For", "198.51.100.2")])
            #expect(other.status == 201, "\(other.text)")
        }
    }
}
