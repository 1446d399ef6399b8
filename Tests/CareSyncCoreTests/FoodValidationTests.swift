import Foundation
import Testing
@testable import CareSyncCore

/// Food in the catalogue and the validator: a correlation of any dietary quantity types, at least one, each once
/// and in a unit of its own dimension, each inside its type's range; any other draft is refused naming the field.
@Suite struct FoodValidationTests {
    static func draft(_ components: [String: Double]?, units: [String: String]? = nil) -> SampleDraft {
        SampleDraft(type: "food", components: components,
                    componentUnits: units ?? components.map { Dictionary(uniqueKeysWithValues: $0.keys.map { ($0, "g") }) },
                    start: "2020-06-18T12:00:00Z", end: "2020-06-18T12:00:00Z")
    }

    static func fields(_ draft: SampleDraft) -> [String] { SampleValidatorTests.problems(draft).map(\.field) }

    @Test func foodIsACorrelationOfEveryDietaryQuantity() {
        let food = SampleType.food
        #expect(food.kind == .correlation && food.definition.hasComponentSet && food.canonicalUnit == nil)
        #expect(!SampleType.bloodPressure.definition.hasComponentSet)
        let dietary = SampleType.all.filter { $0.rawValue.hasPrefix("dietary") }
        #expect(food.components == dietary && dietary.count == 39)
        #expect(food.components.allSatisfy { $0.kind == .quantity && $0.canonicalUnit != nil })
        #expect(SampleType.dietaryEnergyConsumed.correlations.map(\.correlation) == [food])
        #expect(SampleType.stepCount.correlations.isEmpty)
    }

    @Test func aValidFoodBecomesCanonicalComponents() throws {
        let draft = Self.draft(["dietaryEnergyConsumed": 1046, "dietaryProtein": 9500, "dietaryWater": 250],
                               units: ["dietaryEnergyConsumed": "kJ", "dietaryProtein": "mg", "dietaryWater": "mL"])
        let input = try #require(try SampleValidator.validate([draft]).first)
        #expect(input.type == .food && input.value == 3 && input.secondValue == nil)
        #expect(abs((input.components[.dietaryEnergyConsumed] ?? 0) - 250) < 1e-9)
        #expect(input.components[SampleType(rawValue: "dietaryProtein")!] == 9.5)
        #expect(input.components[SampleType(rawValue: "dietaryWater")!] == 250)
    }

    @Test func eachBadComponentIsNamed() {
        #expect(Self.fields(Self.draft(["dietaryUnicorn": 1])) == ["components.dietaryUnicorn"])
        #expect(Self.fields(Self.draft(["stepCount": 1], units: ["stepCount": "count"])) == ["components.stepCount"])
        #expect(Self.fields(Self.draft(["bloodPressureSystolic": 1], units: ["bloodPressureSystolic": "mmHg"]))
                == ["components.bloodPressureSystolic"])
        #expect(Self.fields(Self.draft(["dietaryProtein": 1], units: ["dietaryProtein": "kcal"])) == ["componentUnits.dietaryProtein"])
        #expect(Self.fields(Self.draft(["dietaryProtein": 1], units: ["dietaryProtein": "parsec"])) == ["componentUnits.dietaryProtein"])
        #expect(Self.fields(Self.draft(["dietaryProtein": -0.5])) == ["components.dietaryProtein"])
        #expect(Self.fields(Self.draft(["dietaryProtein": .infinity])) == ["components.dietaryProtein"])
        #expect(Self.fields(Self.draft(["dietaryProtein": 1], units: [:])) == ["componentUnits.dietaryProtein"])
        #expect(Self.fields(Self.draft(["dietaryProtein": 1], units: ["dietaryProtein": "g", "dietaryIron": "mg"]))
                == ["componentUnits.dietaryIron"])
        #expect(Self.fields(Self.draft([:])) == ["components"])
        #expect(Self.fields(Self.draft(nil)) == ["components"])
    }

    @Test func aFoodTakesNoValueNorUnitAndOtherTypesNoComponentUnits() {
        var withBoth = Self.draft(["dietaryProtein": 1])
        withBoth.value = 1
        withBoth.unit = "g"
        #expect(Set(Self.fields(withBoth)) == ["value", "unit"])
        var pressure = SampleDraft(type: "bloodPressure", components: ["bloodPressureSystolic": 120, "bloodPressureDiastolic": 80],
                                   unit: "mmHg", start: "2020-06-18T12:00:00Z", end: "2020-06-18T12:00:00Z")
        #expect(Self.fields(pressure) == [])
        pressure.componentUnits = ["bloodPressureSystolic": "mmHg"]
        #expect(Self.fields(pressure) == ["componentUnits"])
    }

    @Test func storedComponentsRoundTripExactly() throws {
        let components: [SampleType: Double] = [.dietaryEnergyConsumed: 250.1, SampleType(rawValue: "dietaryProtein")!: 0.1 + 0.2,
                                                SampleType(rawValue: "dietaryWater")!: 1e-7]
        let text = try #require(try ComponentCoding.encode(components))
        #expect(text == #"{"dietaryEnergyConsumed":250.1,"dietaryProtein":0.30000000000000004,"dietaryWater":1e-07}"#)
        #expect(try ComponentCoding.decode(text) == components)
        #expect(try ComponentCoding.encode([:]) == nil && ComponentCoding.decode(nil).isEmpty)
        #expect(throws: ComponentCoding.Unreadable.self) { try ComponentCoding.decode(#"{"dietaryUnicorn":1}"#) }
    }
}
