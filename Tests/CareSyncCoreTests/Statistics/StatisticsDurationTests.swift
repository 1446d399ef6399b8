import Foundation
import Testing
@testable import CareSyncCore

/// `durationByValue`: the time category samples spend in each value per bucket, computed by hand.
@Suite struct StatisticsDurationTests {
    typealias F = StatisticsFixtures

    /// One night of sleep stages from the watch, across midnight (UTC), and the phone's time in bed.
    let night: [F.Row] = [
        .init(source: "phone", start: "2020-06-17T22:00:00Z", end: "2020-06-18T07:00:00Z", value: 0),   // inBed
        .init(source: "watch", start: "2020-06-17T23:00:00Z", end: "2020-06-18T02:00:00Z", value: 3),   // asleepCore
        .init(source: "watch", start: "2020-06-18T02:00:00Z", end: "2020-06-18T03:30:00Z", value: 4),   // asleepDeep
        .init(source: "watch", start: "2020-06-18T03:30:00Z", end: "2020-06-18T05:00:00Z", value: 5),   // asleepREM
        .init(source: "watch", start: "2020-06-18T05:00:00Z", end: "2020-06-18T05:10:00Z", value: 2),   // awake
    ]

    func query(unit: String? = nil, options: StatisticsOptions = .durationByValue) -> StatisticsQuery {
        F.makeQuery(type: .sleepAnalysis, start: "2020-06-17T00:00:00Z", end: "2020-06-20T00:00:00Z", options: options, unit: unit)
    }

    @Test func eachValuesTimeIsSplitAtBucketBoundaries() throws {
        let buckets = try F.run(query(), night).buckets
        // June 17: in bed 22:00–24:00, core 23:00–24:00. June 18: the rest of each. June 19: nothing.
        #expect(buckets.map(\.values.durations) == [[0: 7_200, 3: 3_600],
                                                    [0: 25_200, 3: 7_200, 4: 5_400, 5: 5_400, 2: 600], nil])
        #expect(buckets.map(\.values.sum) == [nil, nil, nil])
    }

    @Test func durationsConvertAndSplitBySource() throws {
        let bucket = try F.run(query(unit: "min", options: [.durationByValue, .separateBySource]), night).buckets[1]
        #expect(bucket.values.durations == [0: 420, 3: 120, 4: 90, 5: 90, 2: 10])
        #expect(bucket.sources?.map(\.source) == ["phone", "watch"])
        #expect(bucket.sources?[0].values.durations == [0: 420])
        #expect(bucket.sources?[1].values.durations == [3: 120, 4: 90, 5: 90, 2: 10])
        // Overlapping samples of one value add up; an event (zero length) shows its value with 0.
        let overlapping: [F.Row] = [
            .init(start: "2020-06-18T01:00:00Z", end: "2020-06-18T02:00:00Z", value: 3),
            .init(source: "watch", start: "2020-06-18T01:30:00Z", end: "2020-06-18T02:30:00Z", value: 3),
            .init(start: "2020-06-18T04:00:00Z", end: "2020-06-18T04:00:00Z", value: 2),
        ]
        #expect(try F.run(query(unit: "hr"), overlapping).buckets[1].values.durations == [3: 2, 2: 0])
    }

    @Test func onlyCategoriesTakeItWithoutPriorityAndInTimeUnits() {
        func fields(_ q: StatisticsQuery) -> [String] { F.failingFields { _ = try StatisticsPlan(q) } }
        #expect(fields(query()) == [] && fields(query(unit: "hr")) == [])
        #expect(fields(query(options: .discreteAverage)) == ["type"])
        #expect(fields(query(unit: "kg")) == ["unit"])
        var prioritized = query()
        prioritized.priority = ["watch"]
        #expect(fields(prioritized) == ["priority"])
        #expect(fields(F.makeQuery(type: .stepCount, start: "2020-06-17T00:00:00Z", end: "2020-06-18T00:00:00Z",
                                   options: [.cumulativeSum, .durationByValue])) == ["options"])
    }
}
