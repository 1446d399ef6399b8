import Foundation
import Testing
@testable import CareSyncCore

/// Every quantity type's value range: negative values only where the quantity may be negative, upper bounds
/// only where it has one, both checked on writes and shown by the catalogue.
@Suite struct ValueRangeTests {
    typealias V = SampleValidatorTests

    @Test(arguments: [
        ("sixMinuteWalkTestDistance", -5.0, "m"), ("sixMinuteWalkTestDistance", 1_000_000, "m"),
        ("sixMinuteWalkTestDistance", 2.5, "km"), ("heartRate", -1, "count/min"), ("bodyMass", -70, "kg"),
        ("stepCount", -1, "count"), ("oxygenSaturation", 1.2, "%"), ("oxygenSaturation", -0.1, "%"),
        ("bodyTemperature", -1, "degC"), ("waterTemperature", -300, "degC"), ("height", -0.01, "m"),
    ])
    func valuesOutsideTheRangeAreRefusedNamingTheField(type: String, value: Double, unit: String) {
        let problems = V.problems(V.draft(type: type, value: value, unit: unit))
        #expect(problems.map(\.field) == ["value"])
        #expect(problems.first?.message.contains(type) == true)
    }

    @Test(arguments: [
        ("sixMinuteWalkTestDistance", 0.0, "m"), ("sixMinuteWalkTestDistance", 2_000, "m"), ("oxygenSaturation", 1, "%"),
        ("appleSleepingWristTemperature", -0.8, "degC"), ("waterTemperature", -1.9, "degC"), ("waterTemperature", 28, "degF"),
        ("bodyTemperature", 98.6, "degF"),
    ])
    func valuesInsideTheRangeAreAccepted(type: String, value: Double, unit: String) {
        #expect(V.problems(V.draft(type: type, value: value, unit: unit)).isEmpty)
    }

    @Test func aBloodPressureComponentBelowZeroIsRefusedByName() {
        var draft = V.draft(type: "bloodPressure", value: nil, unit: "mmHg")
        draft.components = ["bloodPressureSystolic": 120, "bloodPressureDiastolic": -80]
        #expect(V.fields(draft) == ["components.bloodPressureDiastolic"])
    }

    @Test func everyQuantityHasALowerBoundAndOnlyListedOnesGoBelowZero() {
        for type in SampleType.all where type.kind == .quantity {
            let range = type.definition.range
            #expect(range != nil, "\(type) has no range")
            let mayBeNegative = TypeCatalogue.lowerBounds[type.rawValue] != nil
            #expect((range?.minimum == 0) == !mayBeNegative, "\(type)")
            if type.canonicalUnit?.dimension == UnitDimension(.percent) { #expect(range?.maximum == 1, "\(type)") }
        }
        for type in SampleType.all where type.kind != .quantity { #expect(type.definition.range == nil) }
    }
}
