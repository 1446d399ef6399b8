import CareSyncBackends
import CareSyncCore
import Foundation
import Testing
@testable import CareSyncServer

/// `DELETE /v1/patients/{id}` (docs/api.md "Erasing a patient"): refused without the confirmation, admins only; then
/// every endpoint answers 404 for the patient (401 for their deleted tokens), the receipt is in the audit log with
/// counts and no value, the id is never reused, and another patient's data is untouched. On SQLite and PostgreSQL.
struct ErasureEndpointTests {
    /// The whole story on `server`.
    static func erasesEverywhere(_ server: TestServer) async throws {
        let t = server.tokens, marker = "ERASE-ME-\(UUID().uuidString)"
        var fields = Fixtures.steps(4711.4242, id: "s1", version: 1).objectValue ?? [:]
        fields["metadata"] = ["note": .string(marker)]
        let sample = JSONValue.object(fields)
        #expect(try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: ["samples": [sample]]).status == 200)
        #expect(try await server.send("POST", "/v1/patients/alice/samples", token: t.therapist, json: ["samples": [Fixtures.steps(12, hour: 11)]],
                                      headers: [("Idempotency-Key", "k1")]).status == 200)
        #expect(try await server.send("POST", "/v1/patients/alice/weekly-reports", token: t.therapist,
                                      json: Fixtures.report(version: 1, tests: [("2020-06-16", 381.5)])).status == 200)
        #expect(try await server.send("PUT", "/v1/patients/alice/goals/dailySteps", token: t.therapist, json: ["target": 7777]).status == 200)
        #expect(try await server.send("POST", "/v1/patients/alice/monitoring/minutes", token: t.therapist,
                                      json: ["day": .string(MonitoringEndpointTests.day(-2)), "minutes": 12, "category": "dataReview"]).status == 201)
        #expect(try await server.send("POST", "/v1/patients/bob/samples", token: t.bobDevice, json: ["samples": [Fixtures.steps(99)]]).status == 200)
        // Anchors are sealed afresh in every answer: compare what they carry besides.
        let bobFeed = try await server.send("GET", "/v1/patients/bob/changes", token: t.bobDevice).json["samples"]
        let bobChecksums = try await server.send("GET", "/v1/patients/bob/checksums", token: t.bobDevice).json["types"]
        #expect(bobFeed?.arrayValue?.count == 1 && bobChecksums?.objectValue?.isEmpty == false)

        // Refusals change nothing.
        try await server.send("DELETE", "/v1/patients/alice", token: t.admin).expectProblem(422, "validationFailed")
        try await server.send("DELETE", "/v1/patients/alice", token: t.admin, headers: [("Confirm-Erase", "bob")])
            .expectProblem(422, "validationFailed")
        try await server.send("DELETE", "/v1/patients/alice", token: t.therapist, headers: [("Confirm-Erase", "alice")])
            .expectProblem(403, "forbidden")
        try await server.send("DELETE", "/v1/patients/nobody", token: t.admin, headers: [("Confirm-Erase", "nobody")])
            .expectProblem(404, "notFound")
        #expect(try await server.send("GET", "/v1/patients/alice/changes", token: t.therapist).status == 200)

        let erased = try await server.send("DELETE", "/v1/patients/alice", token: t.admin, headers: [("Confirm-Erase", "alice")])
        #expect(erased.status == 200)
        let items = erased.json["items"]
        #expect(items?["samples"] == 3 && items?["reports"] == 1 && items?["goals"] == 1 && items?["reviewMinutes"] == 1)
        #expect(items?["idempotencyRecords"] == 1 && items?["careTeamMemberships"] == 1 && items?["patient"] == 1)
        #expect((items?["tokens"]?.numberValue ?? 0) >= 3)  // the fixture's, the expired and the revoked one
        #expect(erased.json["patient"] == "alice" && erased.json["cleanupComplete"] == true)
        #expect(!String(decoding: erased.body, as: UTF8.self).contains(marker))

        // Every endpoint: 404 for the therapist whose team held the patient, 401 for the patient's own token.
        let paths = ["/v1/patients/alice", "/v1/patients/alice/changes", "/v1/patients/alice/checksums",
                     "/v1/patients/alice/weekly-reports", "/v1/patients/alice/weekly-reports/report-2020-W25",
                     "/v1/patients/alice/statistics?type=stepCount&start=2020-06-18T00:00:00Z&end=2020-06-19T00:00:00Z&interval=day",
                     "/v1/patients/alice/status", "/v1/patients/alice/goals", "/v1/patients/alice/monitoring",
                     "/fhir/R4/Observation?patient=alice"]
        for path in paths {
            // FHIR links are absolute, so its searches need a Host.
            let reply = try await server.send("GET", path, token: t.therapist, headers: [("Host", "caresync.test")])
            #expect(reply.status == 404, "\(path): \(reply.status) \(String(decoding: reply.body, as: UTF8.self))")
            #expect(!String(decoding: reply.body, as: UTF8.self).contains(marker))
        }
        #expect(try await server.send("POST", "/v1/patients/alice/samples", token: t.therapist, json: ["samples": [Fixtures.steps(1)]]).status == 404)
        #expect(try await server.send("GET", "/v1/patients/alice/changes", token: t.aliceDevice).status == 401)
        try await server.send("GET", "/v1/patients/alice", token: t.admin).expectProblem(404, "notFound")
        try await server.send("DELETE", "/v1/patients/alice", token: t.admin, headers: [("Confirm-Erase", "alice")])
            .expectProblem(404, "notFound")
        try await server.send("POST", "/v1/webhooks", token: t.admin, json: ["url": "https://clinic.example/h", "patients": ["alice"]])
            .expectProblem(422, "validationFailed")

        // The id is never reused; the receipt is in the audit log: counts, no values.
        try await server.send("POST", "/v1/patients", token: t.admin, json: ["id": "alice"]).expectProblem(409, "conflict")
        let audit = try await server.send("GET", "/v1/audit?patient=alice&limit=100", token: t.admin)
        let records = audit.json["records"]?.arrayValue ?? audit.json["audit"]?.arrayValue ?? []
        let receipt = records.filter { $0["action"]?.stringValue?.hasPrefix("patient.erase") == true }
        #expect(receipt.first { $0["action"] == "patient.erase.samples" }?["count"] == 3)
        #expect(receipt.first { $0["action"] == "patient.erase" }?["count"] == erased.json["total"])
        #expect(!String(decoding: audit.body, as: UTF8.self).contains(marker) && !String(decoding: audit.body, as: UTF8.self).contains("4711"))

        // Bob: exactly as before.
        #expect(try await server.send("GET", "/v1/patients/bob/changes", token: t.bobDevice).json["samples"] == bobFeed)
        #expect(try await server.send("GET", "/v1/patients/bob/checksums", token: t.bobDevice).json["types"] == bobChecksums)
    }

    @Test func erasesEverywhereOnSQLite() async throws {
        try await TestServer.with(.inMemory) { server in try await Self.erasesEverywhere(server) }
    }

    /// `caresync patient erase` in its own process beside a running server on the same SQLite file: the server still
    /// holds the therapist's proven reach to alice, yet its next write for her is 404 and stores nothing (the store
    /// refuses an erased id in the write's transaction; before, the sample was stored under the erased id).
    @Test func aServerBesideTheCommandLinesErasureStoresNothingForTheErasedId() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            #expect(try await server.send("POST", "/v1/patients/alice/samples", token: t.therapist,
                                          json: ["samples": [Fixtures.steps(12, hour: 9)]]).status == 200)
            // As the command line does: its own backend on the file, no word to the running server.
            let cli = try StoreBackends.open(server.app.configuration.storeSettings)
            _ = try #require(try cli.erasure.erase(ErasureRequest(patient: "alice", tokenID: "cli", role: .admin, time: Date())))
            try await server.send("POST", "/v1/patients/alice/samples", token: t.therapist,
                                  json: ["samples": [Fixtures.steps(13, hour: 10)]]).expectProblem(404, "notFound")
            try await server.send("POST", "/v1/patients/alice/weekly-reports", token: t.therapist,
                                  json: Fixtures.report(version: 1, tests: [("2020-06-16", 381.5)])).expectProblem(404, "notFound")
            try await server.send("PUT", "/v1/patients/alice/goals/dailySteps", token: t.therapist, json: ["target": 7777])
                .expectProblem(404, "notFound")
            #expect(try cli.monitoring.goals(patient: "alice").isEmpty)
            let left = try cli.sync.changes(ChangeQuery(patient: "alice", limit: 10))
            #expect(left.samples.isEmpty && left.deletedObjects.isEmpty)
        }
    }

    /// The server learns of the command line's erasure by its own look (`ReachWatch`, every 5 s when serving):
    /// until then a read through the therapist's proven reach answers an empty page; after it, 404 as everywhere.
    @Test func theReachWatchEndsTheReachTheServerProvedBeforeTheCommandLinesErasure() async throws {
        try await TestServer.with(.inMemory) { server in
            let (watch, cli) = try await server.reachWatchBesideTheCommandLine()
            _ = try #require(try cli.erasure.erase(ErasureRequest(patient: "alice", tokenID: "cli", role: .admin, time: Date())))
            #expect(try await server.send("GET", "/v1/patients/alice/changes", token: server.tokens.therapist).status == 200)
            try await server.expectReachEnded(by: watch, noticing: .erasure)
        }
    }

    @Test(.enabled(if: postgresTestServerURL != nil, "CARESYNC_TEST_POSTGRES_URL names no server"))
    func erasesEverywhereOnPostgreSQL() async throws {
        let url = try PostgresServerTests.freshSchemaURL()
        try await TestServer.with(.inMemory, configure: { $0.databaseURL = url }) { server in try await Self.erasesEverywhere(server) }
    }
}
