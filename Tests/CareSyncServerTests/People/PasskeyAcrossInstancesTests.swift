import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// Passkey ceremonies with two instances over one SQLite file, as behind a load balancer without session affinity:
/// a challenge issued by one instance is accepted by the other, once.
struct PasskeyAcrossInstancesTests {
    /// The public origin both instances name as their relying party's.
    static let origin = "http://localhost:8443"

    @Test func aSignInChallengedOnOneInstanceFinishesOnTheOtherOnce() async throws {
        try await TestServer.with(.live, configure: { $0.webAuthn.origins = [Self.origin] }) { one in
            let session = try await one.signIn()
            var authenticator = TestAuthenticator(origin: Self.origin)
            let options = try await one.post("/v1/session/passkeys/challenge", as: session)
            try await TestServer.withInstance(one.app.configuration) { _, port in
                func two(_ path: String, json: JSONValue? = nil, headers: [(String, String)] = []) async throws -> TestReply {
                    let (all, body) = TestServer.request(token: nil, json: json, body: nil, headers: headers)
                    return try await TestHTTPClient.send(port: port, method: "POST", path: path, headers: all, body: body)
                }
                // Registration begun on one, finished on two (the session lives in the shared database too).
                let made = try await two("/v1/session/passkeys", json: authenticator.register(options.json),
                                         headers: session.headers(unsafe: true, origin: "http://127.0.0.1:\(port)"))
                #expect(made.status == 201, "\(made.text)")
                // Sign-in challenged by two, answered to one.
                let challenge = try await two(PasskeyController.signInChallengePath)
                let assertion = try authenticator.assert(challenge.json)
                let signedIn = try await one.send("POST", PasskeyController.signInPath, json: assertion)
                #expect(signedIn.status == 201, "\(signedIn.text)")
                // The challenge is used up on both.
                try await two(PasskeyController.signInPath, json: assertion).expectProblem(401, "unauthorized")
                try await one.send("POST", PasskeyController.signInPath, json: assertion).expectProblem(401, "unauthorized")
            }
        }
    }
}
