import CareSyncBackends
import CareSyncPostgres
import Foundation
import Testing
@testable import CareSyncServer

/// The PostgreSQL server the tests may use (scripts/ci-postgres.sh sets it), or nil.
let postgresTestServerURL = ProcessInfo.processInfo.environment["CARESYNC_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }

/// `database.url` selects the PostgreSQL store: the same API on it, `/readyz` tells whether the database
/// takes writes, and two servers on one database share one feed. Runs when `CARESYNC_TEST_POSTGRES_URL`
/// names a server (scripts/ci-postgres.sh), skipped otherwise.
@Suite(.enabled(if: postgresTestServerURL != nil, "CARESYNC_TEST_POSTGRES_URL names no server"))
struct PostgresServerTests {
    static var serverURL: String? { postgresTestServerURL }

    /// A URL of the test server whose connections work in a fresh schema of their own.
    static func freshSchemaURL() throws -> String {
        let url = try #require(serverURL)
        let schema = "server_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
        try PostgresConnection(url: url).execute("CREATE SCHEMA \(schema)")
        return url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    }

    @Test func theStoryRunsOnPostgreSQL() async throws {
        let url = try Self.freshSchemaURL()
        try await TestServer.with(.inMemory, configure: { $0.databaseURL = url }) { server in
            #expect(server.app.backend is PostgresBackend)
            let t = server.tokens, reports = "/v1/patients/alice/weekly-reports"
            #expect(try await server.send("GET", "/readyz").status == 200)
            let v1 = try await server.send("POST", reports, token: t.therapist,
                                           json: Fixtures.report(version: 1, tests: [("2020-06-16", 380), ("2020-06-18", 400)]))
            #expect(v1.status == 200)
            let first = try await server.send("GET", "/v1/patients/alice/changes", token: t.aliceDevice)
            #expect(first.json["samples"]?.arrayValue?.count == 2)
            let anchor = try #require(first.json["anchor"]?.stringValue)
            _ = try await server.send("POST", reports, token: t.therapist,
                                      json: Fixtures.report(version: 2, tests: [("2020-06-16", 380), ("2020-06-18", 450)]))
            let second = try await server.send("GET", "/v1/patients/alice/changes?anchor=\(anchor)", token: t.aliceDevice)
            #expect(second.json["samples"]?.arrayValue?.first?["value"] == 450)
            #expect(second.json["deletedObjects"]?.arrayValue?.count == 1)
            let average = try await server.send("GET", "/v1/patients/alice/statistics?type=sixMinuteWalkTestDistance"
                + "&start=2020-06-15T00:00:00Z&end=2020-06-22T00:00:00Z&interval=week&options=discreteAverage", token: t.therapist)
            #expect(average.status == 200, "\(average.text)")
            let audit = try await server.send("GET", "/v1/audit?patient=alice", token: t.admin)
            #expect((audit.json["records"]?.arrayValue?.count ?? 0) >= 4, "\(audit.text)")
        }
    }

    @Test func twoServersOnOneDatabaseShareTheFeedAndTheAnchors() async throws {
        let url = try Self.freshSchemaURL()
        try await TestServer.with(.inMemory, configure: { $0.databaseURL = url }) { one in
            // The second instance: the same database, its own pool; the fixture's patients exist already.
            try await TestServer.withInstance({ var c = one.app.configuration; c.port = 0; return c }(), start: false) { two, _ in
                #expect(one.app.api.store.storeID == two.api.store.storeID)
                let t = one.tokens
                _ = try await one.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice,
                                       json: ["samples": [Fixtures.steps(100, id: "s1", version: 1)]])
                let page = try two.api.store.changes(.init(patient: "alice", anchor: nil))
                #expect(page.samples.map(\.value) == [100])
                #expect(try one.app.api.store.currentAnchor() == page.anchor)
            }
        }
    }

    @Test func readyzSaysWhenTheDatabaseTakesNoWrites() async throws {
        let serverURL = try #require(Self.serverURL)
        let name = "readonly_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        let admin = try PostgresConnection(url: serverURL)
        try admin.execute("CREATE DATABASE \(name)")
        defer { try? admin.execute("DROP DATABASE \(name) WITH (FORCE)") }
        let url = serverURL.replacingOccurrences(of: #"/[^/?]*(\?|$)"#, with: "/\(name)$1", options: .regularExpression)
        try await TestServer.with(.inMemory, configure: { $0.databaseURL = url }) { server in
            #expect(try await server.send("GET", "/readyz").status == 200)
            // The database turns read-only (as a primary being demoted) and the server's sessions start again.
            try admin.execute("ALTER DATABASE \(name) SET default_transaction_read_only = on")
            try admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [.text(name)])
            let refused = try await server.send("GET", "/readyz")
            refused.expectProblem(503, "unavailable")
        }
    }
}
