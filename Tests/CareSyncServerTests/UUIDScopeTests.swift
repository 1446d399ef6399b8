import Foundation
import Testing
@testable import CareSyncServer

/// Sample uuids are checked within the patient, and a uuid the caller may not see answers as unknown (issue 25, item 8).
@Suite(.serialized) struct UUIDScopeTests {
    static let uuid = "5E0B6B4C-7A0E-4D1B-9C55-2F1E3B9A0C11"

    @Test func anotherPatientsUUIDIsNeitherConfirmedNorAConflict() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            var sample = Fixtures.steps(10)
            if case .object(var o) = sample { o["uuid"] = .string(Self.uuid); sample = .object(o) }
            let bob = try await server.send("POST", "/v1/patients/bob/samples", token: t.bobDevice, json: ["samples": [sample]])
            #expect(bob.json["results"]?[0]?["outcome"] == "inserted", "\(bob.text)")
            // Alice's device posts the same uuid with other content: her batch is stored, bob's sample untouched.
            var mine = Fixtures.steps(20, hour: 11)
            if case .object(var o) = mine { o["uuid"] = .string(Self.uuid); mine = .object(o) }
            let alice = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice,
                                              json: ["samples": [Fixtures.steps(5), mine]])
            #expect(alice.status == 200, "\(alice.text)")
            #expect(alice.json["results"]?.arrayValue?.map { $0["outcome"] } == ["inserted", "inserted"])
            let bobFeed = try await server.send("GET", "/v1/patients/bob/changes", token: t.bobDevice)
            #expect(bobFeed.json["samples"]?[0]?["value"] == 10 && bobFeed.json["samples"]?.arrayValue?.count == 1, "\(bobFeed.text)")
            // And alice's device deleting that uuid deletes her own sample only.
            let gone = try await server.send("POST", "/v1/patients/alice/samples/delete", token: t.aliceDevice, json: ["uuids": [.string(Self.uuid)]])
            #expect(gone.json["results"]?[0]?["outcome"] == "deleted", "\(gone.text)")
            let still = try await server.send("GET", "/v1/patients/bob/changes", token: t.bobDevice)
            #expect(still.json["samples"]?.arrayValue?.count == 1 && still.json["deletedObjects"]?.arrayValue == [])
        }
    }

    @Test func aHiddenUUIDAnswersAsUnknown() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            let write = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice,
                                              json: ["samples": [Fixtures.steps(10), Fixtures.walkTestSample(400)]])
            let steps = try #require(write.json["results"]?[0]?["uuid"]?.stringValue)
            let walk = try #require(write.json["results"]?[1]?["uuid"]?.stringValue)
            // The narrow token reads only six-minute walks: the steps sample is hidden, the walk is visible.
            let reply = try await server.send("POST", "/v1/patients/alice/samples/delete", token: t.narrow,
                                              json: ["uuids": [.string(steps), .string(walk), .string(UUID().uuidString)]])
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.json["results"]?.arrayValue?.map { $0["outcome"] } == ["notFound", "notOwned", "notFound"], "\(reply.text)")
        }
    }
}
