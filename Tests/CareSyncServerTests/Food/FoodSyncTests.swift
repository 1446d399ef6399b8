import CareSyncCore
import Foundation
import Testing
@testable import CareSyncServer

/// Food over HTTP: one sample with its dietary components in their own units, fed back in canonical units, counted
/// by the dietary types' statistics, listed by `GET /v1/types`; a bad component is 422 naming it, nothing stored.
@Suite(.serialized) struct FoodSyncTests {
    let samples = "/v1/patients/alice/samples"
    let changes = "/v1/patients/alice/changes"

    /// A food at 12:00 on 2020-06-18 (UTC) of `components` in `units`.
    static func food(_ components: [String: JSONValue], units: [String: JSONValue], id: String? = nil, version: Int? = nil) -> JSONValue {
        var o: [String: JSONValue] = [
            "type": "food", "components": .object(components), "componentUnits": .object(units),
            "start": "2020-06-18T12:00:00Z", "end": "2020-06-18T12:00:00Z", "metadata": ["HKFoodType": "Bagel"],
        ]
        if let id { o["syncIdentifier"] = .string(id) }
        if let version { o["syncVersion"] = .number(Double(version)) }
        return .object(o)
    }

    @Test func aFoodIsPostedInAnyUnitsAndFedInCanonicalOnes() async throws {
        try await TestServer.with { server in
            let device = server.tokens.aliceDevice
            let body = Self.food(["dietaryEnergyConsumed": 1046, "dietaryProtein": 9500, "dietaryWater": 250],
                                 units: ["dietaryEnergyConsumed": "kJ", "dietaryProtein": "mg", "dietaryWater": "mL"], id: "food-1", version: 1)
            let posted = try await server.send("POST", samples, token: device, json: ["samples": [body]])
            #expect(posted.status == 200 && posted.json["results"]?[0]?["outcome"] == "inserted", "\(posted.text)")
            let feed = try await server.send("GET", changes, token: device)
            let item = try #require(feed.json["samples"]?[0]?.objectValue)
            #expect(feed.json["samples"]?.arrayValue?.count == 1)
            #expect(Set(item.keys) == ["uuid", "type", "value", "components", "componentUnits", "start", "end", "syncIdentifier",
                                       "syncVersion", "source", "metadata"])
            #expect(item["type"] == "food" && item["value"] == 3 && item["metadata"] == ["HKFoodType": "Bagel"])
            #expect(item["componentUnits"] == ["dietaryEnergyConsumed": "kcal", "dietaryProtein": "g", "dietaryWater": "mL"])
            let energy = item["components"]?["dietaryEnergyConsumed"]?.numberValue ?? 0
            #expect(abs(energy - 1046 / 4.184) < 1e-9, "\(feed.text)")
            #expect(item["components"]?["dietaryProtein"] == 9.5 && item["components"]?["dietaryWater"] == 250)
            // Version 2 replaces the whole food: the protein is gone.
            let v2 = try await server.send("POST", samples, token: device, json: ["samples": [
                Self.food(["dietaryEnergyConsumed": 200], units: ["dietaryEnergyConsumed": "kcal"], id: "food-1", version: 2)]])
            #expect(v2.json["results"]?[0]?["outcome"] == "replaced", "\(v2.text)")
            let after = try await server.send("GET", changes, token: device)
            #expect(after.json["samples"]?.arrayValue?.map { $0["components"] } == [["dietaryEnergyConsumed": 200]])
            // The statistics of dietary energy count the food's energy, beside a sample of its own.
            _ = try await server.send("POST", samples, token: device, json: ["samples": [
                ["type": "dietaryEnergyConsumed", "value": 50, "unit": "kcal", "start": "2020-06-18T15:00:00Z", "end": "2020-06-18T15:00:00Z"]]])
            let day = "type=dietaryEnergyConsumed&start=2020-06-18T00:00:00Z&end=2020-06-19T00:00:00Z&interval=day&options=cumulativeSum"
            let statistics = try await server.send("GET", "/v1/patients/alice/statistics?\(day)", token: server.tokens.therapist)
            #expect(statistics.json["buckets"]?[0]?["sum"] == 250, "\(statistics.text)")
        }
    }

    @Test(arguments: [
        (["dietaryUnicorn": 1], ["dietaryUnicorn": "g"], "components.dietaryUnicorn"),
        (["stepCount": 10], ["stepCount": "count"], "components.stepCount"),
        (["dietaryProtein": 10], ["dietaryProtein": "kcal"], "componentUnits.dietaryProtein"),
        (["dietaryProtein": -1], ["dietaryProtein": "g"], "components.dietaryProtein"),
        (["dietaryProtein": 10], [:], "componentUnits.dietaryProtein"),
        (["dietaryProtein": 10], ["dietaryProtein": "g", "dietaryFiber": "g"], "componentUnits.dietaryFiber"),
        ([:], [:], "components"),
    ] as [([String: Double], [String: String], String)])
    func aBadComponentIs422NamingItNothingStored(components: [String: Double], units: [String: String], field: String) async throws {
        try await TestServer.with { server in
            let device = server.tokens.aliceDevice
            let good = Self.food(["dietaryProtein": 5], units: ["dietaryProtein": "g"])
            let bad = Self.food(components.mapValues { .number($0) }, units: units.mapValues { .string($0) })
            let reply = try await server.send("POST", samples, token: device, json: ["samples": [good, bad]])
            reply.expectProblem(422, "validationFailed")
            let errors = reply.json["errors"]?.arrayValue ?? []
            #expect(errors.map { [$0["index"], $0["field"]] } == [[1, .string(field)]], "\(reply.text)")
            #expect(try await server.send("GET", changes, token: device).json["samples"]?.arrayValue == [])
        }
    }

    @Test func aUnitOnTheWholeFoodOrAValueIs422() async throws {
        try await TestServer.with { server in
            var body = Self.food(["dietaryProtein": 5], units: ["dietaryProtein": "g"]).objectValue!
            body["unit"] = "g"
            body["value"] = 5
            let reply = try await server.send("POST", samples, token: server.tokens.aliceDevice, json: ["samples": [.object(body)]])
            reply.expectProblem(422, "validationFailed")
            #expect(Set(reply.json["errors"]?.arrayValue?.compactMap { $0["field"]?.stringValue } ?? []) == ["unit", "value"], "\(reply.text)")
        }
    }

    @Test func aComponentGivenTwiceIsRefusedAsEveryRepeatedKeyNothingStored() async throws {
        try await TestServer.with { server in
            let device = server.tokens.aliceDevice
            let text = #"{"samples": [{"type": "food", "components": {"dietaryProtein": 5, "dietaryProtein": 6}, "#
                + #""componentUnits": {"dietaryProtein": "g"}, "start": "2020-06-18T12:00:00Z", "end": "2020-06-18T12:00:00Z"}]}"#
            let reply = try await server.send("POST", samples, token: device, body: Array(text.utf8),
                                              headers: [("Content-Type", "application/json")])
            reply.expectProblem(400, "invalidJSON")
            #expect(reply.json["detail"]?.stringValue?.contains("\"dietaryProtein\"") == true, "\(reply.text)")
            #expect(try await server.send("GET", changes, token: device).json["samples"]?.arrayValue == [])
        }
    }

    @Test func typesListFoodWithItsDietaryComponents() async throws {
        try await TestServer.with { server in
            let reply = try await server.send("GET", "/v1/types", token: server.tokens.aliceDevice)
            let food = try #require(reply.json["types"]?.arrayValue?.first { $0["identifier"] == "food" })
            let components = food["components"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(food["kind"] == "correlation" && food["componentSet"] == true && food["canonicalUnit"] == .null)
            #expect(components.contains("dietaryEnergyConsumed") && components.contains("dietaryWater"))
            #expect(components.allSatisfy { $0.hasPrefix("dietary") } && components.count == 39)
            let pressure = try #require(reply.json["types"]?.arrayValue?.first { $0["identifier"] == "bloodPressure" })
            #expect(pressure["componentSet"] == false)
        }
    }
}
