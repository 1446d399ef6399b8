import Foundation
import Testing
@testable import CareSyncCore

/// The catalogue: HealthKit's identifiers, the nine types of 1.0 unchanged, and every type accepting a
/// sample in its units and refusing others.
@Suite struct TypeCatalogueTests {
    @Test func coversHealthKitsQuantityAndCategoryTypes() {
        let quantities = SampleType.all.filter { $0.kind == .quantity }
        let categories = SampleType.all.filter { $0.kind == .category }
        #expect(quantities.count >= 100)
        #expect(categories.count >= 60)
        #expect(Set(SampleType.all.map(\.rawValue)).count == SampleType.all.count)
        for name in ["walkingSpeed", "walkingStepLength", "walkingAsymmetryPercentage", "walkingDoubleSupportPercentage",
                     "stairAscentSpeed", "stairDescentSpeed", "sixMinuteWalkTestDistance", "oxygenSaturation",
                     "respiratoryRate", "bodyTemperature", "bloodGlucose", "restingHeartRate", "heartRateVariabilitySDNN",
                     "bloodPressureSystolic", "bloodPressureDiastolic", "vo2Max", "uvExposure"] {
            #expect(SampleType(rawValue: name)?.kind == .quantity, "\(name)")
        }
        // Names are HealthKit's Swift spellings, without prefix.
        #expect(SampleType(rawValue: "HKQuantityTypeIdentifierStepCount") == nil)
        #expect(SampleType(rawValue: "StepCount") == nil)
    }

    /// Existing data stays valid: the nine types of 1.0 keep their identifiers, aggregation and canonical units.
    @Test(arguments: [("stepCount", "count", true), ("distanceWalkingRunning", "m", true), ("activeEnergyBurned", "kcal", true),
                      ("heartRate", "count/min", false), ("bodyMass", "kg", false), ("height", "m", false),
                      ("walkingSpeed", "m/s", false), ("sixMinuteWalkTestDistance", "m", false)])
    func theNineKeepTheirUnits(_ name: String, _ unit: String, _ cumulative: Bool) throws {
        let type = try #require(SampleType(rawValue: name))
        #expect(type.canonicalUnit?.symbol == unit)
        #expect(type.isCumulative == cumulative)
    }

    @Test func sleepAnalysisHasItsCurrentStages() throws {
        let values = SampleType.sleepAnalysis.definition.values
        #expect(values.map(\.value) == [0, 1, 2, 3, 4, 5])
        #expect(values.map(\.name) == ["inBed", "asleepUnspecified", "awake", "asleepCore", "asleepDeep", "asleepREM"])
        #expect(SampleType.sleepAnalysis.canonicalUnit == nil && SampleType.sleepAnalysis.aggregation == nil)
    }

    @Test func aggregationStylesFollowHealthKit() throws {
        func style(_ name: String) -> AggregationStyle? { SampleType(rawValue: name)?.aggregation }
        #expect(style("heartRate") == .discreteTemporallyWeighted)
        #expect(style("environmentalAudioExposure") == .discreteEquivalentContinuousLevel)
        #expect(style("dietaryWater") == .cumulative)
        #expect(style("bloodGlucose") == .discreteArithmetic)
        #expect(SampleType(rawValue: "headache")?.definition.values.map(\.name) == ["unspecified", "notPresent", "mild", "moderate", "severe"])
        #expect(SampleType(rawValue: "mindfulSession")?.definition.values.map(\.value) == [0])
    }

    /// A unit of this type other than its canonical one, when HealthKit has any (count, % and IU have none).
    static func alternativeUnit(_ type: SampleType) -> String? { type.compatibleUnitExamples.dropFirst().first }

    /// A unit this type refuses.
    static func foreignUnit(_ type: SampleType) -> String {
        type.canonicalUnit?.dimension == UnitDimension(.mass) ? "m" : "kg"
    }

    @Test(arguments: SampleType.all)
    func everyTypeAcceptsItsUnitsAndRefusesOthers(_ type: SampleType) throws {
        let draft = SampleDraft(type: type.rawValue, start: "2020-06-18T10:00:00Z", end: "2020-06-18T10:30:00Z")
        var problems: [ValidationProblem] = []
        if type.definition.hasComponentSet { return }  // food: each component in its own unit (FoodValidationTests)
        guard let canonical = type.canonicalUnit else {
            let allowed = try #require(type.definition.values.last)
            var valid = draft; valid.value = Double(allowed.value)
            #expect(SampleValidator.validate(valid, index: 0, problems: &problems)?.value == Double(allowed.value))
            var outside = draft; outside.value = Double(allowed.value + 1)
            #expect(SampleValidator.validate(outside, index: 0, problems: &problems) == nil)
            var withUnit = valid; withUnit.unit = "count"
            #expect(SampleValidator.validate(withUnit, index: 0, problems: &problems) == nil)
            #expect(problems.map(\.field) == ["value", "unit"])
            return
        }
        /// The draft with `value` as its value, or as each component's value for a correlation.
        func with(_ value: Double, unit: String) -> SampleDraft {
            var d = draft; d.unit = unit
            if type.kind == .correlation {
                d.components = Dictionary(uniqueKeysWithValues: type.components.map { ($0.rawValue, value) })
            } else {
                d.value = value
            }
            return d
        }
        let stored = try #require(SampleValidator.validate(with(0.5, unit: canonical.symbol), index: 0, problems: &problems))
        #expect(problems.isEmpty && stored.value == 0.5)
        #expect(stored.secondValue == (type.kind == .correlation ? 0.5 : nil))
        #expect(type.value(stored.value, in: canonical) == 0.5)
        if let alternative = Self.alternativeUnit(type) {
            let unit = try type.unit(alternative)
            let again = try #require(SampleValidator.validate(with(type.value(0.5, in: unit), unit: alternative), index: 0, problems: &problems))
            #expect(abs(again.value - 0.5) <= 1e-9 && abs((again.secondValue ?? 0.5) - 0.5) <= 1e-9, "\(alternative)")
        }
        let foreign = with(0.5, unit: Self.foreignUnit(type))
        #expect(SampleValidator.validate(foreign, index: 0, problems: &problems) == nil)
        #expect(problems.map(\.field) == ["unit"])
        #expect(problems.first?.message.contains(type.rawValue) == true)
    }

    /// Only HealthKit's scalar families (count, %, IU, dBASPL, effort score) have one unit each.
    @Test func everyOtherQuantityTypeHasAnAlternativeUnit() {
        let scalars: Set = ["count", "%", "IU", "dBASPL", "appleEffortScore"]
        for type in SampleType.all where type.kind == .quantity {
            #expect((Self.alternativeUnit(type) == nil) == scalars.contains(type.canonicalUnit!.symbol), "\(type)")
        }
    }
}
