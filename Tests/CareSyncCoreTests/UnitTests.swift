import Foundation
import Testing
@testable import CareSyncCore

/// HealthKit unit strings: conversions from the units' definitions, both ways; dimensions; what does not parse.
@Suite struct UnitTests {
    /// One line of the table: `value` `from` is `expected` `to`, within a relative `tolerance`.
    struct Conversion: Sendable, CustomTestStringConvertible {
        let value: Double, from: String, expected: Double, to: String
        var tolerance = 1e-12
        var molarMass: Double?
        var testDescription: String { "\(value) \(from) = \(expected) \(to)" }
    }

    static let glucose = 180.15588000005408

    /// Values from the definitions of the units (international yard and pound, thermochemical calorie,
    /// conventional millimetre of mercury, US and imperial fluid ounces), not from the code.
    static let table: [Conversion] = [
        .init(value: 1, from: "mi", expected: 1609.344, to: "m"),
        .init(value: 1, from: "in", expected: 2.54, to: "cm"),
        .init(value: 1, from: "ft", expected: 12, to: "in"),
        .init(value: 1, from: "yd", expected: 3, to: "ft"),
        .init(value: 1.5, from: "km", expected: 1500, to: "m"),
        .init(value: 1, from: "lb", expected: 0.45359237, to: "kg"),
        .init(value: 1, from: "oz", expected: 28.349523125, to: "g"),
        .init(value: 1, from: "st", expected: 14, to: "lb"),
        .init(value: 1, from: "mcg", expected: 0.001, to: "mg"),
        .init(value: 98.6, from: "degF", expected: 37, to: "degC"),
        .init(value: 0, from: "degC", expected: 32, to: "degF"),
        .init(value: -40, from: "degC", expected: -40, to: "degF"),
        .init(value: 0, from: "K", expected: -273.15, to: "degC"),
        .init(value: 212, from: "degF", expected: 373.15, to: "K"),
        .init(value: 1, from: "kcal", expected: 4184, to: "J"),
        .init(value: 1, from: "Cal", expected: 1, to: "kcal"),
        .init(value: 1, from: "Cal", expected: 1000, to: "cal"),
        .init(value: 4.184, from: "kJ", expected: 1, to: "kcal"),
        .init(value: 1, from: "hr", expected: 3600, to: "s"),
        .init(value: 1, from: "d", expected: 1440, to: "min"),
        .init(value: 1, from: "s", expected: 1000, to: "ms"),
        .init(value: 2, from: "count/s", expected: 120, to: "count/min"),
        .init(value: 36, from: "km/hr", expected: 10, to: "m/s"),
        .init(value: 1, from: "mi/hr", expected: 0.44704, to: "m/s"),
        .init(value: 1, from: "m/s^2", expected: 100, to: "cm/s^2"),
        .init(value: 1, from: "L", expected: 1000, to: "mL"),
        .init(value: 1, from: "fl_oz_us", expected: 29.5735295625, to: "mL"),
        .init(value: 1, from: "cup_us", expected: 8, to: "fl_oz_us"),
        .init(value: 1, from: "pt_us", expected: 16, to: "fl_oz_us"),
        .init(value: 1, from: "pt_imp", expected: 20, to: "fl_oz_imp"),
        .init(value: 1, from: "fl_oz_imp", expected: 28.4130625, to: "mL"),
        .init(value: 1, from: "mmHg", expected: 133.322387415, to: "Pa"),
        .init(value: 1, from: "inHg", expected: 25.4, to: "mmHg"),
        .init(value: 1, from: "atm", expected: 101.325, to: "kPa"),
        .init(value: 1, from: "cmAq", expected: 98.0665, to: "Pa"),
        .init(value: 1, from: "W", expected: 1, to: "J/s"),
        .init(value: 1, from: "kcal/(kg*hr)", expected: 4184.0 / 3600.0, to: "W/kg"),
        .init(value: 1, from: "mL/(kg*min)", expected: 1, to: "mL/kg*min"),
        .init(value: 1, from: "mL/(kg*min)", expected: 60, to: "mL/(kg·hr)"),
        .init(value: 1, from: "L/min", expected: 1000.0 / 60.0, to: "mL/s"),
        .init(value: 1, from: "mS", expected: 1000, to: "mcS"),
        .init(value: 100, from: "mg/dL", expected: 5.5507, to: "mmol<180.15588000005408>/L", tolerance: 1e-5),
        .init(value: 100, from: "mg/dL", expected: 5.5507, to: "mmol/L", tolerance: 1e-5, molarMass: glucose),
        .init(value: 1, from: "mol<180.15588000005408>", expected: 180.15588000005408, to: "g"),
    ]

    @Test(arguments: table)
    func convertsBothWays(_ row: Conversion) throws {
        let from = try HealthUnit.parse(row.from, molarMass: row.molarMass)
        let to = try HealthUnit.parse(row.to, molarMass: row.molarMass)
        #expect(from.isCompatible(with: to))
        let there = from.convert(row.value, to: to)
        #expect(abs(there - row.expected) <= row.tolerance * max(1, abs(row.expected)), "got \(there)")
        let back = to.convert(row.expected, to: from)
        #expect(abs(back - row.value) <= row.tolerance * max(1, abs(row.value)), "got \(back)")
    }

    @Test(arguments: [("m", "kg"), ("count", "count/min"), ("kcal", "kg"), ("%", "count"), ("degC", "J"),
                      ("mg/dL", "mmol/L"), ("Hz", "count/min"), ("mmHg", "m"), ("IU", "count"), ("dBASPL", "Pa"),
                      ("m/s", "m/s^2"), ("ms", "m"), ("L", "m^2"), ("appleEffortScore", "count")])
    func incompatiblePairsAreRefused(_ a: String, _ b: String) throws {
        let first = try HealthUnit.parse(a), second = try HealthUnit.parse(b)
        #expect(!first.isCompatible(with: second))
        #expect(!second.isCompatible(with: first))
    }

    @Test(arguments: ["", "furlong", "KG", "cals", "m//s", "m/s/s", "(m", "m)", "m^", "m^x", "mol<-1>", "mol<>",
                      "kg<180>", "m s", "µg", "kdegC", "kcount", "mmHg^^2", "*m", "m*"])
    func stringsHealthKitDoesNotReadAreRefused(_ text: String) {
        #expect(HealthUnit.named(text) == nil)
    }

    @Test func parsedUnitsKeepTheirSymbolAndDimension() throws {
        let unit = try HealthUnit.parse("mL/(kg*min)")
        #expect(unit.symbol == "mL/(kg*min)")
        #expect(unit.dimension.description == "volume/(mass·time)")
        #expect(try HealthUnit.parse("mg/dL").dimension.description == "mass/volume")
        #expect(try HealthUnit.parse("mmol/L").dimension.description == "amount/volume")
        #expect(try HealthUnit.parse("count/min").dimension.description == "count/time")
        #expect(try HealthUnit.parse("kcal").dimension == (try HealthUnit.parse("kg*m^2/s^2")).dimension)
        #expect(throws: UnitParseError.self) { try HealthUnit.parse("furlong") }
    }

    @Test(arguments: ["degC*degC/degC", "degF*s/s", "degC/hr", "degF/hr", "degC^2", "degC^-1", "K*degC", "(degC)*m/m", "degF.count"])
    func aTemperatureWithAnOffsetIsRefusedOutsideALoneUnit(_ text: String) {
        #expect(throws: UnitParser.offsetAlone) { try HealthUnit.parse(text) }
    }

    @Test func aLoneTemperatureKeepsItsOffsetAndKelvinCompounds() throws {
        #expect(try HealthUnit.parse("(degC)").convert(37, to: HealthUnit.parse("K")) == 310.15)
        #expect(abs(try HealthUnit.parse("degF^1").convert(98.6, to: HealthUnit.parse("degC")) - 37) < 1e-9)
        #expect(try HealthUnit.parse("K/hr").dimension.description == "temperature/time")
    }

    @Test func aCompoundTemperatureUnitIsA422NamingTheUnit() {
        guard case let .problem(message) = SampleType(identifier: "bodyTemperature")!.resolveUnit("degC*degC/degC") else {
            Issue.record("degC*degC/degC accepted for bodyTemperature"); return
        }
        #expect(message.contains("degC*degC/degC"))
    }

    @Test func typesResolveUnits() {
        #expect(SampleType.stepCount.resolveUnit("count") == .resolved(.count))
        #expect(SampleType.sleepAnalysis.resolveUnit(nil) == .resolved(nil))
        guard case let .problem(message) = SampleType.stepCount.resolveUnit("kg") else { Issue.record("kg accepted for steps"); return }
        #expect(message.contains("stepCount") && message.contains("'kg'") && message.contains("'count'"))
        guard case .problem = SampleType.sleepAnalysis.resolveUnit("count") else { Issue.record("unit accepted for sleep"); return }
        guard case .problem = SampleType.heartRate.resolveUnit(nil) else { Issue.record("missing unit accepted"); return }
    }

    @Test func bloodGlucoseReadsMolesThroughItsMolarMass() throws {
        let glucose = try #require(SampleType(rawValue: "bloodGlucose"))
        guard case let .resolved(unit?) = glucose.resolveUnit("mmol/L") else { Issue.record("mmol/L refused"); return }
        #expect(abs(glucose.canonicalValue(5.5507, from: unit) - 100) < 1e-3)
        #expect(glucose.dimensions.map(\.description) == ["mass/volume", "amount/volume"])
        guard case let .problem(message) = glucose.resolveUnit("mmol") else { Issue.record("mmol accepted"); return }
        #expect(message.contains("'mg/dL'") && message.contains("'mmol/L'"))
    }

    @Test func outputUnits() throws {
        #expect(try SampleType.distanceWalkingRunning.outputUnit(named: nil) == .meter)
        let km = try #require(try SampleType.distanceWalkingRunning.outputUnit(named: "km"))
        #expect(SampleType.distanceWalkingRunning.value(1500, in: km) == 1.5)
        #expect(SampleType.distanceWalkingRunning.canonicalValue(1.5, from: km) == 1500)
        #expect(SampleType.sleepAnalysis.value(3, in: nil) == 3)
        #expect(throws: SyncError.self) { try SampleType.distanceWalkingRunning.outputUnit(named: "kcal") }
        #expect(throws: SyncError.self) { try SampleType.sleepAnalysis.outputUnit(named: "m") }
    }
}
