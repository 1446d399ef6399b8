import Foundation
import Testing
@testable import CareSyncCore

@Suite struct SampleValidatorTests {
    static func draft(type: String? = "sixMinuteWalkTestDistance", value: Double? = 450, unit: String? = "m",
                      start: String? = "2020-06-18T10:00:00Z", end: String? = "2020-06-18T10:06:00Z",
                      syncIdentifier: String? = nil, syncVersion: Int64? = nil,
                      metadata: [String: MetadataValue]? = nil, uuid: String? = nil) -> SampleDraft {
        SampleDraft(uuid: uuid, type: type, value: value, unit: unit, start: start, end: end,
                    syncIdentifier: syncIdentifier, syncVersion: syncVersion, metadata: metadata)
    }

    /// The problems of a one-draft batch, as (index, field) pairs.
    static func problems(_ draft: SampleDraft) -> [ValidationProblem] {
        do {
            _ = try SampleValidator.validate([draft])
            return []
        } catch let SyncError.validationFailed(problems) {
            return problems
        } catch {
            Issue.record("unexpected \(error)")
            return []
        }
    }

    static func fields(_ draft: SampleDraft) -> [String] { problems(draft).map(\.field) }

    @Test func validSampleBecomesCanonical() throws {
        let id = UUID()
        let inputs = try SampleValidator.validate([
            Self.draft(value: 0.45, unit: "km", start: "2020-06-18T03:00:00-07:00", end: "2020-06-18T03:06:00.5-07:00",
                       syncIdentifier: "r/1", syncVersion: 2, metadata: ["wasUserEntered": .bool(true)], uuid: id.uuidString),
        ])
        let input = try #require(inputs.first)
        #expect(abs(input.value - 450) < 1e-9)
        #expect(input.type == .sixMinuteWalkTestDistance && input.uuid == id)
        #expect(RFC3339.format(input.start) == "2020-06-18T10:00:00.000Z")
        #expect(RFC3339.format(input.end) == "2020-06-18T10:06:00.500Z")
        #expect(input.syncIdentifier == "r/1" && input.syncVersion == 2)
    }

    @Test func everyProblemOfEveryIndexIsReported() {
        do {
            _ = try SampleValidator.validate([Self.draft(), Self.draft(type: "nope", start: "yesterday"),
                                              Self.draft(value: -1, unit: "kg", syncVersion: 1)])
            Issue.record("invalid batch accepted")
        } catch let SyncError.validationFailed(problems) {
            let pairs = Set(problems.map { "\($0.index ?? -1):\($0.field)" })
            #expect(pairs == ["1:type", "1:start", "2:unit", "2:syncVersion"])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func unknownTypeAndIncompatibleUnitNameTypeAndUnit() {
        #expect(Self.fields(Self.draft(type: "stepCounts")) == ["type"])
        let problems = Self.problems(Self.draft(type: "stepCount", unit: "mi"))
        #expect(problems.map(\.field) == ["unit"])
        #expect(problems.first?.message.contains("stepCount") == true && problems.first?.message.contains("'mi'") == true)
        #expect(Self.fields(Self.draft(unit: "furlong")) == ["unit"])
        #expect(Self.fields(Self.draft(unit: nil)) == ["unit"])
    }

    @Test func requiredFields() {
        #expect(Set(Self.fields(SampleDraft())) == ["type", "value", "start", "end"])
    }

    @Test func values() {
        #expect(Self.fields(Self.draft(value: .nan)) == ["value"])
        #expect(Self.fields(Self.draft(value: .infinity)) == ["value"])
        #expect(Self.fields(Self.draft(type: "stepCount", value: -5, unit: "count")) == ["value"])
        #expect(Self.fields(Self.draft(type: "stepCount", value: 0, unit: "count")) == [])
        #expect(Self.fields(Self.draft(type: "bodyMass", value: 1e308, unit: "lb")) == [])
        #expect(Self.fields(Self.draft(type: "height", value: 1e308, unit: "mi")) == ["value"])
    }

    @Test(arguments: [(0.0, true), (5, true), (3, true), (6, false), (-1, false), (2.5, false)])
    func sleepAnalysisIsAnIntegerCategory(value: Double, valid: Bool) {
        #expect(Self.fields(Self.draft(type: "sleepAnalysis", value: value, unit: nil)).isEmpty == valid)
    }

    @Test(arguments: [(0.97, true), (0.0, true), (1.0, true), (97, false), (-0.1, false)])
    func percentagesAreFractionsAsInHealthKit(value: Double, valid: Bool) {
        #expect(Self.fields(Self.draft(type: "oxygenSaturation", value: value, unit: "%")).isEmpty == valid)
    }

    @Test func sleepAnalysisTakesNoUnit() {
        #expect(Self.fields(Self.draft(type: "sleepAnalysis", value: 1, unit: "count")) == ["unit"])
    }

    @Test func dates() {
        #expect(Self.fields(Self.draft(start: "2020-06-18T10:00:00")) == ["start"])
        #expect(Self.fields(Self.draft(end: "2020-06-18T09:59:59Z")) == ["end"])
        #expect(Self.fields(Self.draft(end: "2020-06-18T10:00:00Z")) == [])
        #expect(Self.fields(Self.draft(end: "2020-06-18T03:00:00-07:00")) == [])
    }

    @Test func syncVersionGoesWithSyncIdentifier() {
        #expect(Self.fields(Self.draft(syncIdentifier: "a")) == ["syncVersion"])
        #expect(Self.fields(Self.draft(syncVersion: 1)) == ["syncVersion"])
        #expect(Self.fields(Self.draft(syncIdentifier: "a", syncVersion: 1)) == [])
        #expect(Self.fields(Self.draft(syncIdentifier: "a", syncVersion: -1)) == ["syncVersion"])
        #expect(Self.fields(Self.draft(syncIdentifier: "", syncVersion: 1)) == ["syncIdentifier"])
    }

    /// PostgreSQL text cannot hold U+0000, so "a\0b" would be stored as "a" there: refused on every store (issue 25).
    @Test func aNULInASyncIdentifierIsRefused() {
        #expect(Self.fields(Self.draft(syncIdentifier: "a\u{0}b", syncVersion: 1)) == ["syncIdentifier"])
    }

    @Test func metadata() {
        var many: [String: MetadataValue] = [:]
        for i in 0..<65 { many["k\(i)"] = .number(Double(i)) }
        #expect(Self.fields(Self.draft(metadata: many)) == ["metadata"])
        many["k64"] = nil
        #expect(Self.fields(Self.draft(metadata: many)) == [])
        #expect(Self.fields(Self.draft(metadata: ["note": .string(String(repeating: "x", count: 4100))])) == ["metadata"])
        #expect(Self.fields(Self.draft(metadata: ["note": .string(String(repeating: "x", count: 4000))])) == [])
        #expect(Self.fields(Self.draft(metadata: ["wasUserEntered": .string("yes")])) == ["metadata.wasUserEntered"])
        #expect(Self.fields(Self.draft(metadata: ["wasUserEntered": .number(1)])) == ["metadata.wasUserEntered"])
        #expect(Self.fields(Self.draft(metadata: ["wasUserEntered": .bool(false), "device": .string("watch")])) == [])
    }

    @Test func clientUUIDMustParse() {
        #expect(Self.fields(Self.draft(uuid: "not-a-uuid")) == ["uuid"])
        #expect(Self.fields(Self.draft(uuid: UUID().uuidString)) == [])
    }
}
