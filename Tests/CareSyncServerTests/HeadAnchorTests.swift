import Foundation
import Testing
import CareSyncTestSupport
@testable import CareSyncServer

/// `anchor=now`: a client reaches the head of a patient's feed without reading its history.
@Suite struct HeadAnchorTests {
    @Test func anchorNowAnswersTheHeadWithoutHistoryAndTheNextWriteIsAfterIt() async throws {
        try await TestServer.with { server in
            let device = server.tokens.aliceDevice
            _ = try await server.send("POST", "/v1/patients/alice/samples", token: device,
                                      json: ["samples": [Fixtures.steps(1), Fixtures.steps(2), Fixtures.steps(3)]])
            let head = try await server.send("GET", "/v1/patients/alice/changes?anchor=now", token: device)
            #expect(head.status == 200)
            #expect(head.json["samples"]?.arrayValue?.isEmpty == true)
            #expect(head.json["deletedObjects"]?.arrayValue?.isEmpty == true)
            #expect(head.json["hasMore"]?.boolValue == false)
            let anchor = try #require(head.json["anchor"]?.stringValue)
            #expect(anchor != "now", "the answer carries a real, sealed anchor")
            // Nothing before the head comes back from it; the next write does, alone.
            let none = try await server.send("GET", "/v1/patients/alice/changes?anchor=\(anchor)", token: device)
            #expect(none.json["samples"]?.arrayValue?.isEmpty == true)
            _ = try await server.send("POST", "/v1/patients/alice/samples", token: device, json: ["samples": [Fixtures.steps(42)]])
            let next = try await server.send("GET", "/v1/patients/alice/changes?anchor=\(anchor)", token: device)
            #expect(next.json["samples"]?.arrayValue?.map { $0["value"] } == [42])
        }
    }

    @Test func anchorNowLongPollWakesOnTheNextCommit() async throws {
        try await TestServer.with { server in
            let device = server.tokens.aliceDevice
            _ = try await server.send("POST", "/v1/patients/alice/samples", token: device, json: ["samples": [Fixtures.steps(5)]])
            async let polled = server.send("GET", "/v1/patients/alice/changes?anchor=now&wait=20", token: device)
            try await Eventually.until { server.app.api.notifier.waiterCount == 1 }
            _ = try await server.send("POST", "/v1/patients/alice/samples", token: device, json: ["samples": [Fixtures.steps(6)]])
            let reply = try await polled
            #expect(reply.status == 200)
            #expect(reply.json["samples"]?.arrayValue?.map { $0["value"] } == [6])
        }
    }

    @Test func anchorNowIsReadLikeAnyFeedRead() async throws {
        try await TestServer.with { server in
            // Outside reach: 404 as for every anchor; the word is only special as the whole value.
            let other = try await server.send("GET", "/v1/patients/alice/changes?anchor=now", token: server.tokens.bobDevice)
            #expect(other.status == 404)
            let malformed = try await server.send("GET", "/v1/patients/alice/changes?anchor=nowish", token: server.tokens.aliceDevice)
            #expect(malformed.status == 400)
            #expect(malformed.json["code"]?.stringValue == "invalidAnchor")
        }
    }
}
