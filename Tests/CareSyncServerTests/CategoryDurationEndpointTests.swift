import Foundation
import Testing
@testable import CareSyncServer

/// GET …/statistics with durationByValue: the time of each sleep stage per night, over HTTP.
@Suite(.serialized) struct CategoryDurationEndpointTests {
    static func stage(_ value: Int, _ start: String, _ end: String) -> JSONValue {
        ["type": "sleepAnalysis", "value": .number(Double(value)), "start": .string(start), "end": .string(end)]
    }

    @Test func sleepStagesPerNightInMinutes() async throws {
        try await TestServer.with { server in
            let posted = try await server.send("POST", "/v1/patients/alice/samples", token: server.tokens.aliceDevice, json: ["samples": [
                Self.stage(3, "2020-06-17T23:00:00-07:00", "2020-06-18T01:30:00-07:00"),
                Self.stage(5, "2020-06-18T01:30:00-07:00", "2020-06-18T02:15:00-07:00"),
                Self.stage(3, "2020-06-18T02:15:00-07:00", "2020-06-18T06:00:00-07:00"),
            ]])
            #expect(posted.status == 200, "\(posted.text)")
            let query = "type=sleepAnalysis&start=2020-06-17T00:00:00-07:00&end=2020-06-19T00:00:00-07:00&interval=day"
                + "&timeZone=America/Los_Angeles&options=durationByValue&unit=min"
            let reply = try await server.send("GET", "/v1/patients/alice/statistics?\(query)", token: server.tokens.therapist)
            #expect(reply.status == 200, "\(reply.text)")
            #expect(reply.json["unit"] == "min")
            let buckets = reply.json["buckets"]?.arrayValue ?? []
            // June 17 (local): core 23:00–24:00. June 18: core 00:00–01:30 and 02:15–06:00, REM 01:30–02:15.
            #expect(buckets.map { $0["durations"] } == [
                [["value": 3, "name": "asleepCore", "duration": 60]],
                [["value": 3, "name": "asleepCore", "duration": 315], ["value": 5, "name": "asleepREM", "duration": 45]],
            ])
            let refused = try await server.send("GET", "/v1/patients/alice/statistics?\(query)&priority=a", token: server.tokens.therapist)
            refused.expectProblem(422, "validationFailed")
            #expect(refused.json["errors"]?[0]?["field"] == "priority")
        }
    }
}
