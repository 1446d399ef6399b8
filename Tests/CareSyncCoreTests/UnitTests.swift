import Foundation
import Testing
@testable import CareSyncCore

@Suite struct UnitTests {
    @Test(arguments: [("mi", "m", 1.0, 1609.344), ("km", "m", 1.5, 1500), ("kJ", "kcal", 4.184, 1), ("J", "kJ", 1000, 1),
                      ("Cal", "kcal", 3, 3), ("lb", "kg", 1, 0.45359237), ("oz", "g", 1, 28.349523125),
                      ("count/s", "count/min", 2, 120), ("km/hr", "m/s", 36, 10), ("ft", "in", 1, 12), ("yd", "ft", 1, 3)])
    func converts(from: String, to: String, value: Double, expected: Double) throws {
        let a = try #require(HealthUnit.named(from)), b = try #require(HealthUnit.named(to))
        #expect(abs(a.convert(value, to: b) - expected) <= 1e-9 * max(1, expected))
        #expect(abs(b.convert(a.convert(value, to: b), to: a) - value) <= 1e-9 * max(1, value))
    }

    @Test func compatibility() throws {
        let m = try #require(HealthUnit.named("m"))
        #expect(m.isCompatible(with: try #require(HealthUnit.named("mi"))))
        #expect(!m.isCompatible(with: try #require(HealthUnit.named("kg"))))
        #expect(!(try #require(HealthUnit.named("count"))).isCompatible(with: try #require(HealthUnit.named("count/min"))))
        #expect(HealthUnit.named("cal") == nil)
        #expect(Set(HealthUnit.all.map(\.symbol)).count == HealthUnit.all.count)
    }

    @Test func typesResolveUnits() {
        #expect(SampleType.stepCount.resolveUnit("count") == .resolved(.count))
        #expect(SampleType.sleepAnalysis.resolveUnit(nil) == .resolved(nil))
        guard case let .problem(message) = SampleType.stepCount.resolveUnit("kg") else { Issue.record("kg accepted for steps"); return }
        #expect(message.contains("stepCount") && message.contains("kg"))
        guard case .problem = SampleType.sleepAnalysis.resolveUnit("count") else { Issue.record("unit accepted for sleep"); return }
        guard case .problem = SampleType.heartRate.resolveUnit(nil) else { Issue.record("missing unit accepted"); return }
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
