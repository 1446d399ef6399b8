import CareSyncTestSupport
import CareSyncCore
import CareSyncHTTP
import Foundation
import HTTPTypes
@testable import CareSyncServer

/// A server built by `buildServer` on a temporary database, serving over a real socket on a free loopback port,
/// with two patients, two care teams and a token of every kind the authorization tests need.
final class TestServer: Sendable {
    let app: CareSyncApplication
    let directory: TemporaryDirectory
    /// The bound loopback port.
    let port: Int
    let tokens: Tokens

    /// Secrets of the fixture's tokens.
    struct Tokens: Sendable {
        var admin: String
        /// Therapist of team `physio` (patient alice), source org.example.therapist.
        var therapist: String
        /// Therapist of team `cardio` (patient bob only).
        var otherTherapist: String
        /// Device of alice.
        var aliceDevice: String
        /// Device of bob.
        var bobDevice: String
        var expired: String
        var revoked: String
        /// Therapist of physio that may read and write only sixMinuteWalkTestDistance.
        var narrow: String
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    init(configure: (inout Configuration) -> Void = { _ in }) throws {
        directory = try TemporaryDirectory("caresync-api")
        var configuration = Configuration()
        configuration.databasePath = directory.path("test.sqlite")
        configuration.migrationsDirectory = Self.repositoryRoot.appendingPathComponent("migrations").path
        configuration.port = 0
        configuration.sqliteSynchronous = .normal
        configure(&configuration)
        app = try buildServer(configuration)

        let admin = app.api.admin
        let now = Date()
        try admin.createPatient(id: "alice", timeZone: "America/Los_Angeles", now: now)
        try admin.createPatient(id: "bob", timeZone: "Europe/Berlin", now: now)
        try admin.createCareTeam(name: "physio", now: now)
        try admin.createCareTeam(name: "cardio", now: now)
        try admin.addPatient("alice", toCareTeam: "physio")
        try admin.addPatient("bob", toCareTeam: "cardio")
        func make(_ spec: TokenSpec) throws -> String { try admin.createToken(spec, now: now).secret }
        let expiredSecret = try admin.createToken(TokenSpec(role: .device, patient: "alice", expiresInDays: 1),
                                                  now: now.addingTimeInterval(-2 * 86_400)).secret
        let revokedToken = try admin.createToken(TokenSpec(role: .device, patient: "alice"), now: now)
        try admin.revokeToken(id: revokedToken.record.id, now: now)
        tokens = Tokens(
            admin: try make(TokenSpec(role: .admin)),
            therapist: try make(TokenSpec(role: .therapist, careTeams: ["physio"], source: "org.example.therapist")),
            otherTherapist: try make(TokenSpec(role: .therapist, careTeams: ["cardio"], source: "org.example.cardio")),
            aliceDevice: try make(TokenSpec(role: .device, patient: "alice", source: "org.example.phone.alice")),
            bobDevice: try make(TokenSpec(role: .device, patient: "bob", source: "org.example.phone.bob")),
            expired: expiredSecret, revoked: revokedToken.secret,
            narrow: try make(TokenSpec(role: .therapist, careTeams: ["physio"], source: "org.example.narrow",
                                       readTypes: ["sixMinuteWalkTestDistance"], writeTypes: ["sixMinuteWalkTestDistance"])))
        port = try app.start()
    }

    /// Stops the server and removes its files.
    /// Runs `body` against a fresh server and awaits its shutdown afterwards, also when `body` throws.
    static func with(configure: (inout Configuration) -> Void = { _ in },
                     _ body: (TestServer) async throws -> Void) async throws {
        let server = try TestServer(configure: configure)
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    func stop() async {
        await app.shutdown(gracePeriod: .seconds(2))
        directory.remove()
    }

    /// Sends a request with an optional bearer token and JSON body.
    func send(_ method: String, _ path: String, token: String? = nil, json: JSONValue? = nil,
              body: [UInt8]? = nil, headers: [(String, String)] = []) async throws -> TestReply {
        var all = headers
        if let token { all.append(("Authorization", "Bearer \(token)")) }
        var bytes = body ?? []
        if let json { bytes = json.serialized(); all.append(("Content-Type", "application/json")) }
        return try await TestHTTPClient.send(port: port, method: method, path: path, headers: all, body: bytes)
    }
}

extension TestReply {
    /// The body parsed as JSON (`.null` when it is not JSON).
    var json: JSONValue { (try? JSONValue.parse(body)) ?? .null }
    /// The problem+json `code`, if any.
    var code: String? { json["code"]?.stringValue }
}
