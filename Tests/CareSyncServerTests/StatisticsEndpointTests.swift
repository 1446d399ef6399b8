import Foundation
import Testing
@testable import CareSyncServer

/// GET …/statistics over HTTP: buckets, priority without double counting, hidden unreadable types, 422s.
@Suite(.serialized) struct StatisticsEndpointTests {
    static func steps(_ value: Double, _ start: String, _ end: String) -> JSONValue {
        ["type": "stepCount", "value": .number(value), "unit": "count", "start": .string(start), "end": .string(end)]
    }

    @Test func dailyStepsWithAndWithoutPriority() async throws {
        try await TestServer.with { server in
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
    }

    @Test func invalidQueriesAre422WithEveryField() async throws {
        try await TestServer.with { server in
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

    @Test func figuresComeInTheRequestedUnitForEveryStyle() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            func sample(_ type: String, _ value: Double, _ unit: String, _ hour: Int) -> JSONValue {
                ["type": .string(type), "value": .number(value), "unit": .string(unit),
                 "start": .string("2020-06-16T1\(hour):00:00Z"), "end": .string("2020-06-16T1\(hour):00:00Z")]
            }
            let posted = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: ["samples": [
                sample("bodyTemperature", 97.7, "degF", 0), sample("bodyTemperature", 38.5, "degC", 1),
                sample("bloodGlucose", 5.5507, "mmol<180.15588000005408>/L", 2), sample("bloodGlucose", 120, "mg/dL", 3),
            ]])
            #expect(posted.status == 200, "\(posted.text)")
            let range = "&start=2020-06-16T00:00:00Z&end=2020-06-17T00:00:00Z&interval=day"
            let temperature = try await server.send("GET", "/v1/patients/alice/statistics?type=bodyTemperature\(range)"
                                                    + "&options=discreteAverage,discreteMin,discreteMax,mostRecent&unit=degF", token: t.therapist)
            #expect(temperature.json["unit"] == "degF", "\(temperature.text)")
            let day = temperature.json["buckets"]?[0]
            #expect(abs((day?["average"]?.numberValue ?? 0) - 99.5) < 1e-9)
            #expect(abs((day?["min"]?.numberValue ?? 0) - 97.7) < 1e-9 && abs((day?["max"]?.numberValue ?? 0) - 101.3) < 1e-9)
            let glucose = try await server.send("GET", "/v1/patients/alice/statistics?type=bloodGlucose\(range)&options=discreteMax&unit=mmol/L",
                                                token: t.therapist)
            #expect(abs((glucose.json["buckets"]?[0]?["max"]?.numberValue ?? 0) - 120 / 18.015588000005408) < 1e-9, "\(glucose.text)")
            let category = try await server.send("GET", "/v1/patients/alice/statistics?type=sleepAnalysis\(range)&options=discreteAverage",
                                                 token: t.therapist)
            #expect(category.status == 422 && category.json["errors"]?[0]?["field"] == "type")
            let wrongUnit = try await server.send("GET", "/v1/patients/alice/statistics?type=bloodGlucose\(range)&options=discreteMax&unit=degC",
                                                  token: t.therapist)
            #expect(wrongUnit.status == 422 && wrongUnit.json["errors"]?[0]?["field"] == "unit")
            #expect(wrongUnit.json["errors"]?[0]?["message"]?.stringValue?.contains("mg/dL") == true)
        }
    }
}
