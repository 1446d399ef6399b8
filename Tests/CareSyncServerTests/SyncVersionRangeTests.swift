import Foundation
import Testing
@testable import CareSyncServer

/// `syncVersion` takes the whole Int64 range, exactly, in and out (issue 25).
@Suite(.serialized) struct SyncVersionRangeTests {
    static func sample(version: String) -> [UInt8] {
        Array(#"{"samples":[{"type":"stepCount","value":5,"unit":"count","start":"2020-06-18T09:00:00Z","end":"2020-06-18T09:30:00Z","syncIdentifier":"max","syncVersion":\#(version)}]}"#.utf8)
    }

    @Test func int64MaxRoundTrips() async throws {
        try await TestServer.with { server in
            let device = server.tokens.aliceDevice, json = [("Content-Type", "application/json")]
            let first = try await server.send("POST", "/v1/patients/alice/samples", token: device,
                                              body: Self.sample(version: "9223372036854775807"), headers: json)
            #expect(first.status == 200, "\(first.text)")
            #expect(first.json["results"]?[0]?["outcome"] == "inserted")
            let again = try await server.send("POST", "/v1/patients/alice/samples", token: device,
                                              body: Self.sample(version: "9223372036854775807"), headers: json)
            #expect(again.json["results"]?[0]?["reason"] == "sameVersion", "\(again.text)")
            let older = try await server.send("POST", "/v1/patients/alice/samples", token: device,
                                              body: Self.sample(version: "9223372036854775806"), headers: json)
            #expect(older.json["results"]?[0]?["reason"] == "olderVersion", "\(older.text)")
            let feed = try await server.send("GET", "/v1/patients/alice/changes", token: device)
            #expect(feed.text.contains(#""syncVersion":9223372036854775807"#), "\(feed.text)")
            #expect(feed.json["samples"]?[0]?["syncVersion"]?.integerValue == Int64.max)
            // Outside Int64, or not an integer: 422 naming syncVersion, nothing stored.
            for version in ["9223372036854775808", "1.5", "1e30"] {
                let reply = try await server.send("POST", "/v1/patients/alice/samples", token: device, body: Self.sample(version: version), headers: json)
                reply.expectProblem(422, "validationFailed")
                #expect(reply.json["errors"]?[0]?["field"] == "syncVersion", "\(reply.text)")
            }
            let after = try await server.send("GET", "/v1/patients/alice/changes", token: device)
            #expect(after.json["samples"]?.arrayValue?.count == 1)
        }
    }
}
