import CareSyncBackends
import CareSyncTestSupport
import CareSyncCore
import CareSyncHTTP
import Foundation
import HTTPTypes
import Testing
@testable import CareSyncServer

/// The one test harness of the API: a server built by `buildServer` (as production, over the backend the configuration
/// chooses) on a temporary database, with
/// two patients, two care teams and a token of every kind the authorization tests need. `.live` serves over a real
/// socket on a free loopback port; `.inMemory` sends each request through the same pipeline (head filter, router,
/// web app, access log, problem rendering) without a socket.
final class TestServer: Sendable {
    /// How requests reach the server.
    enum Mode: Sendable, CaseIterable, CustomStringConvertible {
        case live, inMemory
        var description: String { self == .live ? "live" : "in memory" }
    }

    let app: CareSyncApplication
    let mode: Mode
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

    init(_ mode: Mode = .live, clock: ServerClock = .system, configure: (inout Configuration) -> Void = { _ in }) throws {
        self.mode = mode
        directory = try TemporaryDirectory("caresync-api")
        var configuration = Configuration()
        configuration.databasePath = directory.path("test.sqlite")
        configuration.migrationsDirectory = Self.repositoryRoot.appendingPathComponent("migrations").path
        configuration.port = 0
        configuration.sqliteSynchronous = .normal
        // Alert rules are evaluated when a test drives `app.alertJob` (an injected clock), not behind its back.
        configuration.alertEvaluationSeconds = 0
        configure(&configuration)
        // On PostgreSQL, export files too go under the test's folder (the default is the system's temporary folder),
        // so a test leaves none behind.
        if configuration.databaseURL != nil, configuration.exportDirectory.isEmpty {
            configuration.exportDirectory = directory.path("exports")
        }
        app = try Self.build(configuration, clock: clock)

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
        port = mode == .live ? try app.start() : 0
    }

    /// Builds a server as `caresync serve` does: opens the backend the configuration chooses, then `buildServer`.
    static func build(_ configuration: Configuration, clock: ServerClock = .system) throws -> CareSyncApplication {
        try buildServer(configuration, backend: try StoreBackends.open(configuration.storeSettings), clock: clock)
    }

    /// Runs `body` against a fresh server and awaits its shutdown afterwards, also when `body` throws.
    static func with(_ mode: Mode = .live, clock: ServerClock = .system, configure: (inout Configuration) -> Void = { _ in },
                     _ body: (TestServer) async throws -> Void) async throws {
        let server = try TestServer(mode, clock: clock, configure: configure)
        try await withScoped(server, close: { await $0.stop() }, body)
    }

    /// Runs `body` with a second instance built from `configuration` (started when `start`) on `clock`, and awaits its
    /// shutdown afterwards, also when `body` throws.
    static func withInstance(_ configuration: Configuration, start: Bool = true, clock: ServerClock = .system,
                             _ body: (CareSyncApplication, Int) async throws -> Void) async throws {
        let app = try build(configuration, clock: clock)
        let port = start ? try app.start() : 0
        try await withScoped(app, close: { await $0.shutdown(gracePeriod: .seconds(1)) }) { try await body($0, port) }
    }

    /// Stops the server and removes its files.
    func stop() async {
        await app.shutdown(gracePeriod: .seconds(2))
        directory.remove()
    }

    /// The headers and body of a request with an optional bearer token and JSON body.
    static func request(token: String?, json: JSONValue?, body: [UInt8]?,
                        headers: [(String, String)]) -> (headers: [(String, String)], body: [UInt8]) {
        var all = headers
        if let token { all.append(("Authorization", "Bearer \(token)")) }
        var bytes = body ?? []
        if let json { bytes = json.serialized(); all.append(("Content-Type", "application/json")) }
        return (all, bytes)
    }

    /// Sends a request with an optional bearer token and JSON body.
    func send(_ method: String, _ path: String, token: String? = nil, json: JSONValue? = nil,
              body: [UInt8]? = nil, headers: [(String, String)] = []) async throws -> TestReply {
        let (all, bytes) = Self.request(token: token, json: json, body: body, headers: headers)
        switch mode {
        case .live:
            return try await TestHTTPClient.send(port: port, method: method, path: path, headers: all, body: bytes)
        case .inMemory:
            var fields = HTTPFields()
            for (name, value) in all { fields.append(HTTPField(name: try #require(HTTPField.Name(name)), value: value)) }
            let request = Request(method: HTTPRequest.Method(method)!, target: path, headers: fields, body: bytes,
                                  remoteAddress: "127.0.0.1:1")
            let client = InMemoryClient(responder: app.responder, headFilter: app.headFilter,
                                        configuration: app.http.configuration)
            let response = await client.send(request)
            return TestReply(status: response.status.code, headers: response.headers.map { ($0.name.rawName, $0.value) },
                             body: response.body)
        }
    }
}

extension TestReply {
    /// The body parsed as JSON (`.null` when it is not JSON).
    var json: JSONValue { (try? JSONValue.parse(body)) ?? .null }
    /// The problem+json `code`, if any.
    var code: String? { json["code"]?.stringValue }

    /// Asserts the whole problem answer: its status and media type, and a body of exactly the six members, with the
    /// `type` and `title` fixed for `code`, the status repeated, a detail, and an array of field errors.
    func expectProblem(_ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(self.status == status, "\(text)", sourceLocation: sourceLocation)
        #expect(header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
        guard case .object(let body) = json else {
            Issue.record("not a JSON object: \(text)", sourceLocation: sourceLocation)
            return
        }
        #expect(Set(body.keys) == ["type", "title", "status", "detail", "code", "errors"], "\(text)", sourceLocation: sourceLocation)
        #expect(body["code"] == .string(code), "\(text)", sourceLocation: sourceLocation)
        #expect(body["type"] == .string(HTTPError.typePrefix + code), sourceLocation: sourceLocation)
        let known = ProblemCode.all.first { $0.rawValue == code }
        #expect(known != nil, "\(code) is not a documented code", sourceLocation: sourceLocation)
        #expect(body["title"] == known?.title.map(JSONValue.string), "\(text)", sourceLocation: sourceLocation)
        #expect(body["status"] == .number(Double(status)), sourceLocation: sourceLocation)
        #expect(body["detail"]?.stringValue?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(body["errors"]?.arrayValue != nil, sourceLocation: sourceLocation)
    }
}
