import CareSyncCore
import Foundation
import Testing
@testable import CareSyncServer

/// Goals over HTTP: set, replace, adherence, read types, roles and validation that store nothing.
@Suite(.serialized) struct GoalsEndpointTests {
    @Test func aDailyStepGoalShowsItsAdherence() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            let set = try await server.send("PUT", "/v1/patients/alice/goals/dailySteps", token: t.therapist, json: ["target": 5000])
            #expect(set.status == 200, "\(set.text)")
            // Yesterday noon in Los Angeles: 6000 steps, which meets the goal on one day of seven.
            let zone = TimeZone(identifier: "America/Los_Angeles")!
            let noon = DeviceDays.day(of: Date(), in: zone).adding(days: -1).start(in: zone).addingTimeInterval(12 * 3600)
            let steps: JSONValue = ["type": "stepCount", "value": 6000, "unit": "count", "start": .string(RFC3339.format(noon)), "end": .string(RFC3339.format(noon))]
            #expect(try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: ["samples": [steps]]).status == 200)
            let read = try await server.send("GET", "/v1/patients/alice/goals", token: t.therapist)
            #expect(read.status == 200, "\(read.text)")
            let goal = read.json["goals"]?[0]
            #expect(goal?["kind"] == "dailySteps" && goal?["target"]?.numberValue == 5000)
            #expect(goal?["adherence"]?["daysMet"]?.integerValue == 1 && goal?["adherence"]?["days"]?.integerValue == 7)
            #expect(goal?["adherence"]?["latestMet"] == .bool(true))
            // A token that may not read steps sees the goal without figures.
            let narrow = try await server.send("GET", "/v1/patients/alice/goals?days=30", token: t.narrow)
            #expect(narrow.json["goals"]?[0]?["adherence"]?["daysMet"] == .null)
            _ = try await server.send("PUT", "/v1/patients/alice/goals/dailySteps", token: t.therapist, json: ["target": 7000])
            let replaced = try await server.send("GET", "/v1/patients/alice/goals", token: t.therapist)
            #expect(replaced.json["goals"]?.arrayValue?.count == 1 && replaced.json["goals"]?[0]?["adherence"]?["daysMet"]?.integerValue == 0)
        }
    }

    @Test func rolesReachAndValidation() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            try await server.send("PUT", "/v1/patients/alice/goals/dailySteps", token: t.aliceDevice, json: ["target": 5000]).expectProblem(403, "forbidden")
            try await server.send("PUT", "/v1/patients/alice/goals/dailySteps", token: t.otherTherapist, json: ["target": 5000]).expectProblem(404, "notFound")
            try await server.send("PUT", "/v1/patients/alice/goals/flying", token: t.therapist, json: ["target": 5000]).expectProblem(404, "notFound")
            try await server.send("PUT", "/v1/patients/alice/goals/sixMinuteWalk", token: t.therapist, json: ["target": 5000]).expectProblem(422, "validationFailed")
            try await server.send("PUT", "/v1/patients/alice/goals/dailySteps", token: t.therapist, json: ["target": -1]).expectProblem(422, "validationFailed")
            try await server.send("GET", "/v1/patients/alice/goals?days=0", token: t.therapist).expectProblem(422, "validationFailed")
            #expect(try server.app.backend.monitoring.goals(patient: "alice").isEmpty)
        }
    }
}
