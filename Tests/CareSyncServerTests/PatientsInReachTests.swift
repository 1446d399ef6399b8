import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// `GET /v1/patients` and `GET /v1/patients/{id}` answer each role with the patients it reaches (admin: all;
/// therapist: its care teams'; device: its one), out of reach is 404 as on every patient path; `GET /v1/whoami`.
@Suite struct PatientsInReachTests {
    static func ids(_ reply: TestReply) -> [String] {
        reply.json["patients"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    @Test func theListHoldsThePatientsInReach() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let expected: [(String, [String])] = [
                (t.admin, ["alice", "bob"]), (t.therapist, ["alice"]), (t.otherTherapist, ["bob"]),
                (t.aliceDevice, ["alice"]), (t.bobDevice, ["bob"]), (t.narrow, ["alice"]),
            ]
            for (token, ids) in expected {
                let reply = try await server.send("GET", "/v1/patients", token: token)
                #expect(reply.status == 200)
                #expect(Self.ids(reply) == ids)
            }
            let alice = try await server.send("GET", "/v1/patients", token: t.therapist).json["patients"]?[0]
            #expect(alice?["timeZone"] == "America/Los_Angeles")
            #expect(alice?["createdAt"]?.stringValue != nil)
            #expect(try await server.send("GET", "/v1/patients", token: t.expired).status == 401)
        }
    }

    @Test func oneRecordIsReadableInReachAndNotFoundOutside() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let cases: [(String, String, Int)] = [
                (t.therapist, "alice", 200), (t.therapist, "bob", 404), (t.therapist, "nobody", 404),
                (t.aliceDevice, "alice", 200), (t.aliceDevice, "bob", 404), (t.bobDevice, "alice", 404),
                (t.admin, "alice", 200), (t.admin, "nobody", 404),
            ]
            for (token, patient, status) in cases {
                let reply = try await server.send("GET", "/v1/patients/\(patient)", token: token)
                #expect(reply.status == status, "\(patient)")
                if status == 200 { #expect(reply.json["id"]?.stringValue == patient) } else { reply.expectProblem(404, "notFound") }
            }
            // Out of reach and missing read the same, so the answer does not tell that bob exists.
            let hidden = try await server.send("GET", "/v1/patients/bob", token: t.therapist)
            let missing = try await server.send("GET", "/v1/patients/nobody", token: t.therapist)
            #expect(hidden.text == missing.text)
        }
    }

    @Test func readsByTherapistsAndDevicesAreAudited() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            _ = try await server.send("GET", "/v1/patients", token: t.therapist)
            _ = try await server.send("GET", "/v1/patients/bob", token: t.therapist)
            _ = try await server.send("GET", "/v1/patients/alice", token: t.aliceDevice)
            let records = try await server.send("GET", "/v1/audit?limit=3", token: t.admin).json["records"]?.arrayValue ?? []
            #expect(records.count == 3)
            #expect(records[2]["action"] == "patients.list" && records[2]["count"] == 1 && records[2]["patient"] == .null)
            #expect(records[1]["action"] == "patients.read" && records[1]["status"] == 404 && records[1]["patient"] == "bob")
            #expect(records[0]["action"] == "patients.read" && records[0]["status"] == 200 && records[0]["role"] == "device")
        }
    }

    @Test func whoamiAnswersTheCallersOwnTokenWithoutItsSecret() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let therapist = try await server.send("GET", "/v1/whoami", token: t.therapist)
            #expect(therapist.status == 200)
            #expect(therapist.json["role"] == "therapist")
            #expect(therapist.json["source"] == "org.example.therapist")
            #expect(therapist.json["careTeams"] == ["physio"])
            #expect(therapist.json["id"]?.stringValue.map { t.therapist.hasPrefix("cs_\($0)_") } == true)
            #expect(therapist.json["secret"] == nil && !therapist.text.contains(t.therapist))
            let device = try await server.send("GET", "/v1/whoami", token: t.aliceDevice)
            #expect(device.json["role"] == "device" && device.json["patient"] == "alice")
            #expect(try await server.send("GET", "/v1/whoami", token: t.admin).json["role"] == "admin")
            let bad = try await server.send("GET", "/v1/whoami", token: t.revoked)
            bad.expectProblem(401, "unauthorized")
        }
    }
}
