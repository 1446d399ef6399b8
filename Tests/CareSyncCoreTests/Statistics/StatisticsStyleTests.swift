import Foundation
import Testing
@testable import CareSyncCore

/// Options by aggregation style over the whole catalogue, and every figure in the requested unit.
@Suite struct StatisticsStyleTests {
    typealias F = StatisticsFixtures

    static let start = "2020-06-18T00:00:00Z", end = "2020-06-19T00:00:00Z"

    func fields(_ type: SampleType, _ options: StatisticsOptions) -> [String] {
        F.failingFields { _ = try StatisticsPlan(F.makeQuery(type: type, start: Self.start, end: Self.end, options: options)) }
    }

    /// As HealthKit: cumulativeSum only on cumulative types, the discrete options only on discrete ones
    /// (arithmetic, temporally weighted or equivalent continuous level alike), none on categories.
    @Test(arguments: SampleType.all)
    func optionsFollowTheAggregationStyle(_ type: SampleType) {
        let discrete: [StatisticsOptions] = [.discreteAverage, .discreteMin, .discreteMax, .mostRecent]
        switch type.aggregation {
        case nil:
            #expect(fields(type, .cumulativeSum) == ["type"])
            #expect(fields(type, .discreteAverage) == ["type"])
        case .cumulative?:
            #expect(fields(type, [.cumulativeSum, .separateBySource]) == [])
            for option in discrete { #expect(fields(type, option) == ["options"]) }
        case .some:
            for option in discrete { #expect(fields(type, [option, .separateBySource]) == []) }
            #expect(fields(type, .cumulativeSum) == ["options"])
        }
    }

    let temperatures: [F.Row] = [
        .init(start: "2020-06-18T08:00:00Z", end: "2020-06-18T08:00:00Z", value: 36.5),
        .init(start: "2020-06-18T20:00:00Z", end: "2020-06-18T20:00:00Z", value: 38.5),
    ]

    @Test func everyDiscreteFigureConvertsWithTheUnitsOffset() throws {
        let type = try #require(SampleType(rawValue: "bodyTemperature"))
        let query = F.makeQuery(type: type, start: Self.start, end: Self.end,
                                options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .separateBySource], unit: "degF")
        let bucket = try F.run(query, temperatures).buckets[0]
        // 37.5 °C = 99.5 °F, 36.5 °C = 97.7 °F, 38.5 °C = 101.3 °F.
        #expect(close(bucket.values.average, 99.5))
        #expect(close(bucket.values.minimum, 97.7) && close(bucket.values.maximum, 101.3) && close(bucket.values.mostRecent, 101.3))
        #expect(close(bucket.sources?.first?.values.average, 99.5))
    }

    @Test func cumulativeSumsConvert() throws {
        let water = try #require(SampleType(rawValue: "dietaryWater"))
        let query = F.makeQuery(type: water, start: Self.start, end: Self.end, options: .cumulativeSum, unit: "fl_oz_us")
        let rows: [F.Row] = [.init(start: "2020-06-18T08:00:00Z", end: "2020-06-18T08:00:00Z", value: 295.735295625)]
        #expect(close(try F.run(query, rows).buckets[0].values.sum, 10))
    }

    @Test func glucoseStatisticsInMillimolesPerLitre() throws {
        let glucose = try #require(SampleType(rawValue: "bloodGlucose"))
        var query = F.makeQuery(type: glucose, start: Self.start, end: Self.end, options: .discreteAverage)
        query.unit = try glucose.unit("mmol/L")
        let rows: [F.Row] = [.init(start: "2020-06-18T08:00:00Z", end: "2020-06-18T08:00:00Z", value: 100)]
        let average = try #require(try F.run(query, rows).buckets[0].values.average)
        #expect(abs(average - 5.5507) < 1e-4)
    }

    /// Sound levels average as energy: 60 and 80 dBASPL give 10·log10((10^6 + 10^8) / 2) ≈ 77.03, not 70.
    @Test func soundLevelsAverageAsEquivalentContinuousLevel() throws {
        let audio = try #require(SampleType(rawValue: "environmentalAudioExposure"))
        let query = F.makeQuery(type: audio, start: Self.start, end: Self.end,
                                options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent])
        let rows: [F.Row] = [
            .init(start: "2020-06-18T08:00:00Z", end: "2020-06-18T08:30:00Z", value: 60),
            .init(start: "2020-06-18T09:00:00Z", end: "2020-06-18T09:30:00Z", value: 80),
        ]
        let values = try F.run(query, rows).buckets[0].values
        #expect(close(values.average, 10 * log10((1e6 + 1e8) / 2)))
        #expect(close(values.minimum, 60) && close(values.maximum, 80) && close(values.mostRecent, 80))
    }
}
