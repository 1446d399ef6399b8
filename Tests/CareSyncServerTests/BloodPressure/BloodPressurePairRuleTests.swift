import CareSyncCore
import Foundation
import Testing
@testable import CareSyncServer

/// A token that may read one component of blood pressure sees no pair in statistics and statistics changes,
/// as in the feed and checksums (issue 25, item 6).
@Suite(.serialized) struct BloodPressurePairRuleTests {
    static let day = "type=bloodPressureSystolic&start=2020-06-18T00:00:00Z&end=2020-06-19T00:00:00Z&interval=day&options=discreteMax"

    static func systolicOnly(_ server: TestServer) throws -> String {
        try server.app.api.admin.createToken(TokenSpec(role: .therapist, careTeams: ["physio"], source: "org.example.systolic",
                                                       readTypes: ["bloodPressureSystolic"]), now: Date()).secret
    }

    @Test func statisticsLeaveOutPairsTheTokenMayNotRead() async throws {
        try await TestServer.with { server in
            let narrow = try Self.systolicOnly(server)
            _ = try await server.send("POST", "/v1/patients/alice/samples", token: server.tokens.aliceDevice, json: ["samples": [
                Pressure.pair(150, 95, at: "08:00"), Pressure.component(.bloodPressureSystolic, 120, at: "18:00"),
            ]])
            let narrowed = try await server.send("GET", "/v1/patients/alice/statistics?\(Self.day)", token: narrow)
            #expect(narrowed.status == 200, "\(narrowed.text)")
            #expect(narrowed.json["buckets"]?[0]?["max"] == 120, "\(narrowed.text)")
            let full = try await server.send("GET", "/v1/patients/alice/statistics?\(Self.day)", token: server.tokens.therapist)
            #expect(full.json["buckets"]?[0]?["max"] == 150, "\(full.text)")
        }
    }

    @Test func statisticsChangesLeaveOutPairsTheTokenMayNotRead() async throws {
        try await TestServer.with { server in
            let narrow = try Self.systolicOnly(server), device = server.tokens.aliceDevice
            _ = try await server.send("POST", "/v1/patients/alice/samples", token: device, json: ["samples": [
                Pressure.component(.bloodPressureSystolic, 120, at: "18:00"),
            ]])
            let first = try await server.send("GET", "/v1/patients/alice/statistics/changes?\(Self.day)", token: narrow)
            let anchor = try #require(first.json["anchor"]?.stringValue)
            _ = try await server.send("POST", "/v1/patients/alice/samples", token: device, json: ["samples": [Pressure.pair(160, 95, at: "08:00")]])
            let next = try await server.send("GET", "/v1/patients/alice/statistics/changes?\(Self.day)&anchor=\(anchor)", token: narrow)
            #expect(next.status == 200, "\(next.text)")
            #expect(next.json["buckets"]?.arrayValue == [], "\(next.text)")
            let all = try await server.send("GET", "/v1/patients/alice/statistics/changes?\(Self.day)", token: narrow)
            #expect(all.json["buckets"]?[0]?["max"] == 120, "\(all.text)")
            #expect(!all.text.contains("160") && !next.text.contains("160"))
        }
    }
}
