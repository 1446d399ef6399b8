import Foundation
import Testing
@testable import CareSyncCore

/// Discrete figures of an arithmetic type (respiratory rate, count/min): average, min, max, mostRecent, per
/// source and by priority. Temporally weighted averages (heart rate) are in `StatisticsWeightedTests`.
@Suite struct StatisticsDiscreteTests {
    typealias F = StatisticsFixtures

    let threeDays = F.makeQuery(type: SampleType(rawValue: "respiratoryRate")!, start: "2020-06-18T00:00:00Z", end: "2020-06-21T00:00:00Z",
                                options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent])
    let rows: [F.Row] = [
        .init(source: "watch", start: "2020-06-18T08:00:00Z", end: "2020-06-18T08:00:00Z", value: 60),
        .init(source: "watch", start: "2020-06-18T20:00:00Z", end: "2020-06-18T20:01:00Z", value: 70),
        .init(source: "phone", start: "2020-06-18T12:00:00Z", end: "2020-06-18T12:00:00Z", value: 80),
        .init(source: "phone", start: "2020-06-20T23:59:00Z", end: "2020-06-21T00:10:00Z", value: 90),
    ]

    @Test func averageMinMaxAndMostRecent() throws {
        // Day 1: 60, 80, 70 → mean 70, min 60, max 80, latest start 20:00 → 70. Day 2 empty.
        // Day 3: 90, a sample starting in the day counts there even if it ends after.
        let result = try F.run(threeDays, rows)
        let first = result.buckets[0].values
        #expect(close(first.average, 70))
        #expect(first.minimum == 60 && first.maximum == 80 && first.mostRecent == 70)
        #expect(first.mostRecentStart == F.date("2020-06-18T20:00:00Z"))
        #expect(first.mostRecentEnd == F.date("2020-06-18T20:01:00Z"))
        #expect(first.sum == nil)
        #expect(result.buckets[1].values == StatisticsValues())
        #expect(result.buckets[2].values.average == 90 && result.buckets[2].values.mostRecent == 90)
    }

    @Test func onlyRequestedFiguresAreSet() throws {
        var query = threeDays
        query.options = [.discreteMax]
        let values = try F.run(query, rows).buckets[0].values
        #expect(values == StatisticsValues(maximum: 80))
    }

    @Test func discreteValuesConvert() throws {
        // count/min to count/s: 70 breaths per minute are 70/60 per second.
        var query = threeDays
        query.unit = HealthUnit.named("count/s")
        let values = try F.run(query, rows).buckets[0].values
        #expect(close(values.average, 70.0 / 60.0))
        #expect(close(values.minimum, 1))
    }

    @Test func separateBySourceAndPriority() throws {
        // With priority watch > phone, day 1 uses only the watch (60, 70 → 65); day 3 has only the phone → 90.
        var query = threeDays
        query.options = [.discreteAverage, .separateBySource]
        query.priority = ["watch", "phone"]
        let result = try F.run(query, rows)
        #expect(close(result.buckets[0].values.average, 65))
        #expect(result.buckets[0].sources == [SourceStatistics(source: "phone", values: StatisticsValues(average: 80)),
                                              SourceStatistics(source: "watch", values: StatisticsValues(average: 65))])
        #expect(result.buckets[2].values.average == 90)
        // Without priority all samples of the day count: (60 + 70 + 80) / 3.
        query.priority = []
        #expect(close(try F.run(query, rows).buckets[0].values.average, 70))
    }

    @Test func mostRecentPerSource() throws {
        // Day 1 per source: phone's latest is 80 (12:00), the watch's 70 (20:00); the bucket's is the watch's 70.
        var query = threeDays
        query.options = [.mostRecent, .separateBySource]
        let bucket = try F.run(query, rows).buckets[0]
        #expect(bucket.values.mostRecent == 70)
        #expect(bucket.sources?.map(\.source) == ["phone", "watch"])
        #expect(bucket.sources?.map(\.values.mostRecent) == [80, 70])
    }
}
