import Foundation
import Testing
@testable import CareSyncCore

/// Query validation: every refusal is `validationFailed` naming the query field.
@Suite struct StatisticsValidationTests {
    typealias F = StatisticsFixtures

    func fields(_ query: StatisticsQuery) -> [String] { F.failingFields { _ = try StatisticsPlan(query) } }

    let start = "2020-06-18T00:00:00Z", end = "2020-06-19T00:00:00Z"

    @Test func cumulativeOptionOnDiscreteTypeAndTheReverse() {
        #expect(fields(F.makeQuery(type: .heartRate, start: start, end: end, options: .cumulativeSum)) == ["options"])
        #expect(fields(F.makeQuery(type: .stepCount, start: start, end: end, options: .discreteAverage)) == ["options"])
        #expect(fields(F.makeQuery(type: .stepCount, start: start, end: end, options: [.cumulativeSum, .mostRecent])) == ["options"])
        #expect(fields(F.makeQuery(type: .stepCount, start: start, end: end, options: .separateBySource)) == ["options"])
        #expect(fields(F.makeQuery(type: .bodyMass, start: start, end: end, options: [.discreteMin, .mostRecent])) == [])
    }

    @Test func categoryTypesHaveNoStatistics() {
        #expect(fields(F.makeQuery(type: .sleepAnalysis, start: start, end: end, options: .discreteAverage)) == ["type"])
    }

    @Test func badTimeZoneUnitAndRange() {
        #expect(fields(F.makeQuery(start: start, end: end, timeZone: "Mars/Olympus_Mons")) == ["timeZone"])
        #expect(fields(F.makeQuery(start: start, end: end, unit: "kg")) == ["unit"])
        #expect(fields(F.makeQuery(start: start, end: start)) == ["end"])
        #expect(fields(F.makeQuery(start: end, end: start)) == ["end"])
        #expect(fields(F.makeQuery(start: start, end: end, priority: ["a", "a"])) == ["priority"])
    }

    @Test func tooManyBucketsIsRefusedBeforeAnyWork() throws {
        // Two years of hours (17,544) is over the 10,000 limit; one year (8,784 in 2020) is fine.
        #expect(fields(F.makeQuery(start: "2020-01-01T00:00:00Z", end: "2022-01-01T00:00:00Z", interval: .hour)) == ["interval"])
        #expect(fields(F.makeQuery(start: "2020-01-01T00:00:00Z", end: "2021-01-01T00:00:00Z", interval: .hour)) == [])
        #expect(try StatisticsPlan(F.makeQuery(start: "2020-01-01T00:00:00Z", end: "2021-01-01T00:00:00Z", interval: .hour)).bucketCount == 8_784)
    }
}

/// Parsing api.md's option list.
@Suite struct StatisticsOptionsTests {
    @Test func parsesNamesAndRefusesUnknownOnes() throws {
        #expect(try StatisticsOptions.parse("cumulativeSum,separateBySource") == [.cumulativeSum, .separateBySource])
        #expect(try StatisticsOptions.parse("discreteMin, discreteMax,mostRecent") == [.discreteMin, .discreteMax, .mostRecent])
        #expect(StatisticsFixtures.failingFields { _ = try StatisticsOptions.parse("sum") } == ["options"])
        #expect(StatisticsOptions([.discreteAverage, .separateBySource]).names == ["discreteAverage", "separateBySource"])
    }
}
