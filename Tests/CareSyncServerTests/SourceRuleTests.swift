import CareSyncCore
import CareSyncHTTP
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// A source has no control or format characters, and belongs to one writer (issue 25, item 9).
@Suite(.serialized) struct SourceRuleTests {
    @Test(arguments: ["org.example\u{0}nul", "org.example\u{1B}[31m", "org.example\u{202E}lit", "org.\u{200B}example",
                      "org.example\u{2028}x", "org.example\u{FEFF}", "org example", ""])
    func invisibleAndSpacedSourcesAreRefused(source: String) async throws {
        try await TestServer.with(.inMemory) { server in
            let before = try server.app.api.access.tokens().count
            let reply = try await server.send("POST", "/v1/tokens", token: server.tokens.admin,
                                              json: ["role": "device", "patient": "alice", "source": .string(source)])
            reply.expectProblem(422, "validationFailed")
            #expect(reply.json["errors"]?[0]?["field"] == "source", "\(reply.text)")
            #expect(try server.app.api.access.tokens().count == before)
        }
    }

    @Test func aSourceBelongsToOneWriter() async throws {
        try await TestServer.with { server in
            let admin = server.tokens.admin
            func mint(_ body: JSONValue) async throws -> TestReply { try await server.send("POST", "/v1/tokens", token: admin, json: body) }
            // Another role: refused.
            let therapist = try await mint(["role": "therapist", "careTeams": ["physio"], "source": "org.example.phone.alice"])
            therapist.expectProblem(409, "conflict")
            let deviceAsTherapist = try await mint(["role": "device", "patient": "alice", "source": "org.example.therapist"])
            deviceAsTherapist.expectProblem(409, "conflict")
            // The same writer again (a replacement device token, a therapist's second token): allowed.
            let replacement = try await mint(["role": "device", "patient": "alice", "source": "org.example.phone.alice"])
            #expect(replacement.status == 201, "\(replacement.text)")
            let second = try await mint(["role": "therapist", "careTeams": ["cardio"], "source": "org.example.therapist"])
            #expect(second.status == 201, "\(second.text)")
            // The same app on another patient's phone: a device of another patient never writes alice's data.
            let otherPatientsPhone = try await mint(["role": "device", "patient": "bob", "source": "org.example.phone.alice"])
            #expect(otherPatientsPhone.status == 201, "\(otherPatientsPhone.text)")

            // So no therapist token can delete the device's sample by carrying its source.
            let write = try await server.send("POST", "/v1/patients/alice/samples", token: server.tokens.aliceDevice,
                                              json: ["samples": [Fixtures.steps(10, id: "walk", version: 1)]])
            #expect(write.status == 200)
            let tokens = try server.app.api.access.tokens().filter { $0.source == "org.example.phone.alice" }
            #expect(tokens.allSatisfy { $0.role == .device })
        }
    }

    @Test func aRevokedWritersSourceIsNotHandedOn() async throws {
        try await TestServer.with(.inMemory) { server in
            let admin = server.app.api.admin, now = Date()
            let old = try admin.createToken(TokenSpec(role: .device, patient: "bob", source: "org.example.old"), now: now)
            try admin.revokeToken(id: old.record.id, now: now)
            #expect(throws: HTTPError.self) {
                try admin.createToken(TokenSpec(role: .therapist, careTeams: ["cardio"], source: "org.example.old"), now: now)
            }
        }
    }
}
