import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// An admin names a patient and changes their time zone (`POST /v1/patients` with `displayName`,
/// `PATCH /v1/patients/{id}`); bad input is a 422 naming the field with nothing changed; other roles are refused.
@Suite struct PatientUpdateTests {
    @Test func anAdminSetsTheDisplayNameAndTimeZoneAndEveryRoleReadsThem() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let created = try await server.send("POST", "/v1/patients", token: t.admin,
                                                json: ["id": "carol", "timeZone": "Europe/Berlin", "displayName": "Carol Ö."])
            #expect(created.status == 201)
            #expect(created.json["displayName"] == "Carol Ö.")
            let updated = try await server.send("PATCH", "/v1/patients/alice", token: t.admin, json: ["displayName": "Alice Martin"])
            #expect(updated.status == 200, "\(updated.text)")
            #expect(updated.json["displayName"] == "Alice Martin")
            #expect(updated.json["timeZone"] == "America/Los_Angeles", "an absent member is kept")
            let moved = try await server.send("PATCH", "/v1/patients/alice", token: t.admin, json: ["timeZone": "Europe/Paris"])
            #expect(moved.json["timeZone"] == "Europe/Paris" && moved.json["displayName"] == "Alice Martin")
            let read = try await server.send("GET", "/v1/patients/alice", token: t.therapist)
            #expect(read.json["displayName"] == "Alice Martin" && read.json["timeZone"] == "Europe/Paris")
            let status = try await server.send("GET", "/v1/patients/alice/status", token: t.therapist)
            #expect(status.json["timeZone"] == "Europe/Paris", "what is computed in the patient's calendar follows")
            let audit = try await server.send("GET", "/v1/audit?patient=alice&limit=5", token: t.admin)
            #expect(audit.json["records"]?.arrayValue?.contains { $0["action"] == "admin.patient.update" && $0["status"] == 200 } == true)
        }
    }

    @Test(arguments: [
        (["timeZone": "Mars/Olympus"] as JSONValue, "timeZone"),
        (["displayName": "a\u{202E}b"] as JSONValue, "displayName"),
        (["displayName": .string(String(repeating: "x", count: 101))] as JSONValue, "displayName"),
        (["displayName": 5] as JSONValue, "displayName"),
        (["id": "zed"] as JSONValue, "id"),
    ])
    func badInputNamesTheFieldAndChangesNothing(body: JSONValue, field: String) async throws {
        try await TestServer.with { server in
            let before = try await server.send("GET", "/v1/patients/alice", token: server.tokens.admin).text
            let reply = try await server.send("PATCH", "/v1/patients/alice", token: server.tokens.admin, json: body)
            reply.expectProblem(422, "validationFailed")
            #expect(reply.json["errors"]?[0]?["field"]?.stringValue == field, "\(reply.text)")
            #expect(try await server.send("GET", "/v1/patients/alice", token: server.tokens.admin).text == before)
        }
    }

    @Test func onlyAnAdminUpdatesAndAMissingPatientIs404() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            for token in [t.therapist, t.aliceDevice] {
                let reply = try await server.send("PATCH", "/v1/patients/alice", token: token, json: ["displayName": "X"])
                reply.expectProblem(403, "forbidden")
            }
            let missing = try await server.send("PATCH", "/v1/patients/nobody", token: t.admin, json: ["displayName": "X"])
            missing.expectProblem(404, "notFound")
            #expect(try await server.send("GET", "/v1/patients/alice", token: t.admin).json["displayName"] == "")
        }
    }
}
