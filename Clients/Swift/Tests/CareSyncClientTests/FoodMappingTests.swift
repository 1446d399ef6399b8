import Foundation
import Testing
@testable import CareSyncClient
@testable import HealthExport

/// The mapper turns a `HKCorrelationTypeIdentifierFood` into one `food` sample: its dietary records as components,
/// each in its own unit, the correlation's metadata, and the food's stable id as its identity.
@Suite struct FoodMappingTests {
    static let time = "2020-06-16 12:30:00 -0700"
    static let mapper = RecordMapper(types: [
        TypeInfo(identifier: "dietaryEnergyConsumed", kind: "quantity", aggregation: "cumulative", canonicalUnit: "kcal"),
        TypeInfo(identifier: "dietaryProtein", kind: "quantity", aggregation: "cumulative", canonicalUnit: "g"),
        TypeInfo(identifier: "stepCount", kind: "quantity", aggregation: "cumulative", canonicalUnit: "count"),
        TypeInfo(identifier: "food", kind: "correlation", components: ["dietaryEnergyConsumed", "dietaryProtein"], componentSet: true),
    ])

    static func bagel(_ records: [(String, String, String)]) -> HealthCorrelation {
        HealthCorrelation(type: RecordMapper.food, sourceName: "FoodLog", startDate: time, endDate: time,
                          metadata: ["HKFoodType": "Bagel", "HKMetadataKeyMeal": "lunch"],
                          records: records.map { HealthRecord(type: "HKQuantityTypeIdentifier" + $0.0, sourceName: "FoodLog", unit: $0.1,
                                                              startDate: time, endDate: time, value: $0.2) })
    }

    @Test func aFoodIsOneSampleWithItsComponentsInTheirUnits() throws {
        let food = Self.bagel([("DietaryEnergyConsumed", "kJ", "1046"), ("DietaryProtein", "mg", "9500")])
        let results = Self.mapper.samples(food, foodID: "food-abc")
        try #require(results.count == 1)
        let mapped = try results[0].get()
        #expect(mapped.draft.type == "food" && mapped.draft.unit == nil)
        #expect(mapped.draft.components == ["dietaryEnergyConsumed": 1046, "dietaryProtein": 9500])
        #expect(mapped.draft.componentUnits == ["dietaryEnergyConsumed": "kJ", "dietaryProtein": "mg"])
        #expect(mapped.draft.metadata == ["sourceName": .string("FoodLog"), "HKFoodType": .string("Bagel"), "HKMetadataKeyMeal": .string("lunch")])
        #expect(mapped.identity == ["food-abc"] && mapped.draft.start == RecordMapper.date(Self.time))
        let body = String(decoding: try JSONEncoder.careSync().encode(mapped.draft), as: UTF8.self)
        #expect(body.contains(#""componentUnits":{"#) && !body.contains(#""value""#) && !body.contains(#""unit""#), "\(body)")
    }

    @Test func theFoodsOwnSyncIdentifierIsItsIdentifier() throws {
        var food = Self.bagel([("DietaryEnergyConsumed", "kcal", "250")])
        food.metadata["HKMetadataKeySyncIdentifier"] = "meal-7"
        food.metadata["HKMetadataKeySyncVersion"] = "3"
        let mapped = try #require(Self.mapper.samples(food, foodID: "meal-7").first).get()
        #expect(mapped.givenIdentifier == "meal-7" && mapped.givenVersion == 3)
    }

    @Test func aFoodThatCannotBeOneSampleKeepsEachRecord() throws {
        let odd = Self.bagel([("DietaryEnergyConsumed", "kcal", "250"), ("StepCount", "count", "12")])
        let results = Self.mapper.samples(odd, foodID: "food-abc").map { try? $0.get() }
        #expect(results.map { $0?.draft.type } == ["dietaryEnergyConsumed", "stepCount"])
        #expect(results.allSatisfy { $0?.draft.metadata?["foodCorrelation"] == .string("food-abc") })
        let twice = Self.bagel([("DietaryEnergyConsumed", "kcal", "250"), ("DietaryEnergyConsumed", "kcal", "30")])
        #expect(Self.mapper.samples(twice, foodID: "food-abc").count == 2)
    }

    @Test func aFoodReplacesTheDietarySamplesAnEarlierAgentStoredForIt() throws {
        let food = try #require(Self.mapper.samples(Self.bagel([("DietaryEnergyConsumed", "kcal", "250")]), foodID: "food-abc").first).get()
        var identity = ExportIdentity(previous: [
            "export-old": .init(syncVersion: 1, digest: nil, sourceName: "FoodLog", type: "dietaryEnergyConsumed"),
            "export-walk": .init(syncVersion: 1, digest: nil, sourceName: "FoodLog", type: "stepCount"),
        ])
        _ = identity.assign(food)
        #expect(identity.gone() == ["export-old"])  // the food holds the export's energy readings; steps are not its
    }
}
