import Foundation
import Testing
@testable import CareSyncServer

/// GET …/statistics over HTTP: buckets, priority without double counting, hidden unreadable types, 422s.
@Suite(.serialized) struct StatisticsEndpointTests {
    static func steps(_ value: Double, _ start: String, _ end: String) -> JSONValue {
        ["type": "stepCount", "value": .number(value), "unit": "count", "start": .string(start), "end": .string(end)]
    }

    @Test func dailyStepsWithAndWithoutPriority() async throws {
        let server = try TestServer()
        defer { Task { await server.stop() } }
        let t = server.tokens
        // The phone (alice's device) and the watch (a second device token) count the same walk.
        let watch = try server.app.api.admin.createToken(TokenSpec(role: .device, patient: "alice", source: "org.example.watch"), now: Date()).secret
        _ = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice,
                                  json: ["samples": [Self.steps(1000, "2020-06-16T10:00:00Z", "2020-06-16T11:00:00Z")]])
        _ = try await server.send("POST", "/v1/patients/alice/samples", token: watch,
                                  json: ["samples": [Self.steps(1200, "2020-06-16T10:00:00Z", "2020-06-16T11:00:00Z"),
                                                     Self.steps(300, "2020-06-17T23:00:00Z", "2020-06-18T02:00:00Z")]])
        let base = "/v1/patients/alice/statistics?type=stepCount&start=2020-06-15T00:00:00Z&end=2020-06-19T00:00:00Z&interval=day&options=cumulativeSum"
        let summed = try await server.send("GET", base, token: t.therapist)
        #expect(summed.status == 200, "\(summed.text)")
        #expect(summed.json["unit"] == "count")
        let buckets = summed.json["buckets"]?.arrayValue ?? []
        #expect(buckets.map { $0["start"] } == ["2020-06-15T00:00:00.000Z", "2020-06-16T00:00:00.000Z", "2020-06-17T00:00:00.000Z", "2020-06-18T00:00:00.000Z"])
        // Empty days are null; the midnight sample splits 1/3 – 2/3; without priority the sources add up.
        #expect(buckets.map { $0["sum"] } == [.null, 2200, 100, 200])

        let prioritized = try await server.send("GET", base + "&priority=org.example.watch,org.example.phone.alice", token: t.therapist)
        #expect(prioritized.json["buckets"]?.arrayValue?.map { $0["sum"] } == [.null, 1200, 100, 200])

        let bySource = try await server.send("GET", base + ",separateBySource", token: t.therapist)
        let day2 = bySource.json["buckets"]?[1]?["sources"]?.arrayValue ?? []
        #expect(Set(day2.compactMap { $0["source"]?.stringValue }) == ["org.example.phone.alice", "org.example.watch"])

        // The narrow token may not read steps: it sees empty buckets, not a refusal.
        let hidden = try await server.send("GET", base, token: t.narrow)
        #expect(hidden.status == 200)
        #expect(hidden.json["buckets"]?.arrayValue?.map { $0["sum"] } == [.null, .null, .null, .null])
    }

    @Test func invalidQueriesAre422WithEveryField() async throws {
        let server = try TestServer()
        defer { Task { await server.stop() } }
        let wrongOption = try await server.send("GET", "/v1/patients/alice/statistics?type=heartRate&start=2020-06-15T00:00:00Z&end=2020-06-16T00:00:00Z&interval=day&options=cumulativeSum",
                                                token: server.tokens.therapist)
        #expect(wrongOption.status == 422)
        #expect(wrongOption.json["errors"]?[0]?["field"] == "options")
        let missing = try await server.send("GET", "/v1/patients/alice/statistics?type=nope&interval=fortnight", token: server.tokens.therapist)
        #expect(missing.status == 422)
        let fields = Set((missing.json["errors"]?.arrayValue ?? []).compactMap { $0["field"]?.stringValue })
        #expect(fields == ["type", "start", "end", "interval", "options"])
    }
}
