import Foundation
import Testing
@testable import CareSyncCore

/// The sample → Observation mapping of docs/fhir.md: every catalogue type has codes and, for quantities, a UCUM unit;
/// the standard types carry their LOINC codes and the R4 vital-signs profile's units.
@Suite struct ObservationMappingTests {
    /// A sample of `type` over `minutes` from 2020-06-18T10:00:00Z.
    static func sample(_ type: SampleType, _ value: Double, second: Double? = nil, minutes: Double = 0,
                       syncIdentifier: String? = nil, syncVersion: Int64? = nil) -> Sample {
        let start = Date(timeIntervalSince1970: 1_592_474_400)
        return Sample(uuid: UUID(uuidString: "0190A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B")!, type: type, value: value, secondValue: second,
                      start: start, end: start.addingTimeInterval(minutes * 60), syncIdentifier: syncIdentifier,
                      syncVersion: syncVersion, source: "org.example.phone")
    }

    @Test func everyCatalogueTypeMapsWithItsCareSyncCode() {
        for type in SampleType.all {
            let code = ObservationCodeTable.code(for: type)
            #expect(code.codings.last == FHIRCoding(system: "urn:caresync:sample-type", code: type.rawValue, display: type.rawValue))
            switch type.kind {
            case .quantity: #expect(code.unit != nil, "\(type) has no unit")
            case .category:
                #expect(code.unit == nil)
                for value in type.definition.values {
                    #expect(code.categoryValue(value.value)?.code == "\(type.rawValue).\(value.name)")
                }
            case .correlation: #expect(code.components.count == (type.definition.hasComponentSet ? 0 : 2), "\(type)")
            }
        }
    }

    /// The table of docs/fhir.md: (type, LOINC codes, category, UCUM code).
    static let standardRows: [(String, [String], String?, String?)] = [
        ("stepCount", ["55423-8"], "activity", "{steps}"),
        ("sixMinuteWalkTestDistance", ["64098-7"], "activity", "m"),
        ("heartRate", ["8867-4"], "vital-signs", "/min"),
        ("bodyMass", ["29463-7"], "vital-signs", "kg"),
        ("height", ["8302-2"], "vital-signs", "cm"),
        ("bloodPressure", ["85354-9"], "vital-signs", nil),
        ("bloodPressureSystolic", ["8480-6"], "vital-signs", "mm[Hg]"),
        ("bloodPressureDiastolic", ["8462-4"], "vital-signs", "mm[Hg]"),
        ("respiratoryRate", ["9279-1"], "vital-signs", "/min"),
        ("oxygenSaturation", ["59408-5", "2708-6"], "vital-signs", "%"),
        ("bodyTemperature", ["8310-5"], "vital-signs", "Cel"),
        ("bodyMassIndex", ["39156-5"], "vital-signs", "kg/m2"),
    ]

    @Test(arguments: standardRows) func standardTypesCarryLOINCAndProfileUnits(row: (String, [String], String?, String?)) throws {
        let code = ObservationCodeTable.code(for: try #require(SampleType(rawValue: row.0)))
        #expect(code.standard.map(\.code) == row.1)
        #expect(code.standard.allSatisfy { $0.system == "http://loinc.org" })
        #expect(code.category?.rawValue == row.2)
        #expect(code.unit?.code == row.3)
    }

    @Test func valuesConvertIntoTheProfileUnits() {
        func quantity(_ type: SampleType, _ value: Double) -> FHIRObservation.Quantity? {
            if case .quantity(let q) = ObservationMapper.observation(of: Self.sample(type, value), patient: "alice", enteredByTherapist: false).value { return q }
            return nil
        }
        #expect(quantity(SampleType(rawValue: "oxygenSaturation")!, 0.97)?.value == 97)
        #expect(quantity(.height, 1.83)?.value == 183)
        #expect(quantity(.heartRate, 72)?.code == "/min")
        #expect(quantity(SampleType(rawValue: "bodyTemperature")!, 37.2)?.value == 37.2)
        #expect(quantity(SampleType(rawValue: "bodyTemperature")!, 37.2)?.code == "Cel")
    }

    @Test func bloodPressureIsAPanelWithTwoComponents() {
        let o = ObservationMapper.observation(of: Self.sample(.bloodPressure, 120, second: 80), patient: "alice", enteredByTherapist: false)
        #expect(o.value == .none)
        #expect(o.components.map(\.coding.code) == ["8480-6", "8462-4"])
        #expect(o.components.map(\.quantity.value) == [120, 80])
        #expect(o.components.allSatisfy { $0.quantity.code == "mm[Hg]" })
    }

    @Test func anIntervalIsAPeriodAndAnInstantADateTime() {
        let steps = ObservationMapper.observation(of: Self.sample(.stepCount, 500, minutes: 30), patient: "alice", enteredByTherapist: false)
        #expect(steps.effective == .period(start: Date(timeIntervalSince1970: 1_592_474_400), end: Date(timeIntervalSince1970: 1_592_476_200)))
        let pulse = ObservationMapper.observation(of: Self.sample(.heartRate, 60), patient: "alice", enteredByTherapist: false)
        #expect(pulse.effective == .instant(Date(timeIntervalSince1970: 1_592_474_400)))
    }

    @Test func sleepStagesAreCodeableConcepts() throws {
        let asleep = try #require(SampleType.sleepAnalysis.definition.values.first { $0.name == "asleepREM" })
        let o = ObservationMapper.observation(of: Self.sample(.sleepAnalysis, Double(asleep.value), minutes: 90), patient: "alice",
                                              enteredByTherapist: false)
        #expect(o.value == .concept(FHIRCoding(system: "urn:caresync:category-value", code: "sleepAnalysis.asleepREM", display: "asleepREM")))
    }

    @Test func identityVersionSourceAndPerformer() {
        let s = Self.sample(.sixMinuteWalkTestDistance, 420, minutes: 6, syncIdentifier: "report-2020-W25/2020-06-18", syncVersion: 3)
        let o = ObservationMapper.observation(of: s, patient: "alice", enteredByTherapist: true)
        #expect(o.id == "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b")
        #expect(ObservationMapper.uuid(ofID: o.id) == s.uuid)
        #expect(o.versionId == "3")
        #expect(o.syncIdentifier == "report-2020-W25/2020-06-18")
        #expect(o.source == "org.example.phone")
        #expect(o.enteredByTherapist)
        #expect(ObservationMapper.observation(of: Self.sample(.heartRate, 60), patient: "alice", enteredByTherapist: false).versionId == nil)
    }
}
