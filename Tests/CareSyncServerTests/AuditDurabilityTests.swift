import CareSyncCore
import CareSyncStore
import Foundation
import Testing
@testable import CareSyncServer

/// An answered request always has its audit record on disk; a write commits with its record or not at all.
@Suite struct AuditDurabilityTests {
    /// The audit rows as (action, status, count), oldest first, read straight from the database.
    static func auditRows(_ server: TestServer) throws -> [String] {
        try server.sqliteDatabase().read { db in
            try db.fetchAll("SELECT action, status, item_count FROM audit_log ORDER BY id", []) { s in
                "\(s.string(0)) \(s.int64(1)) \(s.int64(2))"
            }
        }
    }

    @Test func answeredRequestsAreAlreadyInTheAuditTable() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let post = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice,
                                             json: ["samples": [Fixtures.steps(1), Fixtures.steps(2, hour: 10)]])
            #expect(post.status == 200)
            #expect(try Self.auditRows(server) == ["samples.upsert 200 2"])
            let feed = try await server.send("GET", "/v1/patients/alice/changes", token: t.therapist)
            #expect(feed.status == 200)
            let refused = try await server.send("GET", "/v1/patients/alice/changes", token: t.bobDevice)
            #expect(refused.status == 404)
            #expect(try Self.auditRows(server) == ["samples.upsert 200 2", "changes.read 200 2", "changes.read 404 0"])
        }
    }

    @Test(arguments: [false, true])
    func aWriteWhoseAuditRecordCannotBeStoredIsNotStored(withIdempotencyKey: Bool) async throws {
        try await TestServer.with { server in
            let t = server.tokens
            try server.sqliteDatabase().write { db in try db.execute("DROP TABLE audit_log") }
            let headers = withIdempotencyKey ? [("Idempotency-Key", "k-1")] : []
            let post = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice,
                                             json: ["samples": [Fixtures.steps(1)]], headers: headers)
            #expect(post.status == 503)
            post.expectProblem(503, "unavailable")
            let stored = try server.sqliteDatabase().read { db in try db.scalarInt64("SELECT count(*) FROM samples") }
            #expect(stored == 0)
            let keys = try server.sqliteDatabase().read { db in try db.scalarInt64("SELECT count(*) FROM idempotency_records") }
            #expect(keys == 0)
            let feed = try await server.send("GET", "/v1/patients/alice/changes", token: t.aliceDevice)
            #expect(feed.status == 503)
            #expect(feed.json["samples"] == nil)
        }
    }

    @Test func aReadIsAnsweredOnlyOnceItsRecordIsStored() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let post = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: ["samples": [Fixtures.steps(7)]])
            #expect(post.status == 200)
            let paths = ["/v1/patients/alice/changes", "/v1/patients/alice/weekly-reports",
                         "/v1/patients/alice/statistics?type=stepCount&interval=day&options=cumulativeSum"
                            + "&start=2020-06-18T00:00:00Z&end=2020-06-19T00:00:00Z"]
            for path in paths {
                let reply = try await server.send("GET", path, token: t.therapist)
                #expect(reply.status == 200, "\(path)")
            }
            try server.sqliteDatabase().write { db in try db.execute("DROP TABLE audit_log") }
            for path in paths {
                let reply = try await server.send("GET", path, token: t.therapist)
                #expect(reply.status == 503, "\(path)")
                #expect(!reply.text.contains("\"value\""), "\(path)")
            }
        }
    }
}
