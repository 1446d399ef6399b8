import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// A signed-in browser as the session tests drive it: its cookie pair, its CSRF token and its person.
struct BrowserSession: Sendable {
    /// `name=secret`, as the browser sends it back in `Cookie`.
    var cookie: String
    /// The session's CSRF token.
    var csrfToken: String
    /// The signed-in person's id.
    var personID: String
    /// The session's public id.
    var sessionID: String

    /// The headers of a request from this browser; `unsafe` adds the page's `Origin` and `X-CSRF-Token`.
    func headers(unsafe: Bool = false, origin: String) -> [(String, String)] {
        var all = [("Cookie", cookie)]
        if unsafe { all += [("Origin", origin), ("X-CSRF-Token", csrfToken)] }
        return all
    }
}

extension TestServer {
    /// This server's own origin as a browser on loopback names it.
    var origin: String { "http://127.0.0.1:\(port)" }

    /// An invitation made by the admin token; its secret.
    func invite(role: String = "therapist", careTeams: [String] = ["physio"]) async throws -> String {
        let reply = try await send("POST", "/v1/people/invitations", token: tokens.admin,
                                   json: ["role": .string(role), "careTeams": .array(careTeams.map(JSONValue.string)), "displayName": "Dana"])
        #expect(reply.status == 201, "\(reply.text)")
        return try #require(reply.json["secret"]?.stringValue)
    }

    /// Redeems `secret` as a browser on loopback would.
    func redeem(_ secret: String, headers: [(String, String)] = []) async throws -> TestReply {
        try await send("POST", "/v1/invitations/redeem", json: ["secret": .string(secret)], headers: headers)
    }

    /// A therapist (or `role`) invited and signed in.
    func signIn(role: String = "therapist", careTeams: [String] = ["physio"], headers: [(String, String)] = []) async throws -> BrowserSession {
        let reply = try await redeem(try await invite(role: role, careTeams: careTeams), headers: headers)
        #expect(reply.status == 201, "\(reply.text)")
        return try Self.session(from: reply)
    }

    /// The browser session a sign-in answer starts.
    static func session(from reply: TestReply) throws -> BrowserSession {
        let setCookie = try #require(reply.header("Set-Cookie"))
        let pair = String(try #require(setCookie.split(separator: ";").first))
        return BrowserSession(cookie: pair, csrfToken: try #require(reply.json["csrfToken"]?.stringValue),
                              personID: try #require(reply.json["person"]?["id"]?.stringValue),
                              sessionID: try #require(reply.json["session"]?["id"]?.stringValue))
    }

    /// A GET with `session`'s cookie.
    func get(_ path: String, as session: BrowserSession, headers: [(String, String)] = []) async throws -> TestReply {
        try await send("GET", path, headers: session.headers(origin: origin) + headers)
    }
}
