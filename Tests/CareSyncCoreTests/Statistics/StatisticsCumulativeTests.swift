import Foundation
import Testing
@testable import CareSyncCore

/// Cumulative sums: proration, source priority, filters, units, empty buckets.
@Suite struct StatisticsCumulativeTests {
    typealias F = StatisticsFixtures

    let day = F.makeQuery(start: "2020-06-18T00:00:00Z", end: "2020-06-19T00:00:00Z")

    @Test func sampleAcrossMidnightSplitsOneThirdTwoThirds() throws {
        // 23:40–00:40: 20 minutes on the 18th, 40 on the 19th; 300 steps → 100 and 200.
        let query = F.makeQuery(start: "2020-06-18T00:00:00Z", end: "2020-06-20T00:00:00Z")
        let result = try F.run(query, [.init(start: "2020-06-18T23:40:00Z", end: "2020-06-19T00:40:00Z", value: 300)])
        #expect(close(result.buckets[0].values.sum, 100))
        #expect(close(result.buckets[1].values.sum, 200))
    }

    /// Watch 10:00–10:30 with 300 steps, phone 10:00–11:00 with 400 steps.
    let watchAndPhone: [F.Row] = [
        .init(source: "watch", start: "2020-06-18T10:00:00Z", end: "2020-06-18T10:30:00Z", value: 300),
        .init(source: "phone", start: "2020-06-18T10:00:00Z", end: "2020-06-18T11:00:00Z", value: 400),
    ]

    @Test func withoutPriorityOverlappingSourcesAddUp() throws {
        // The documented sum: 300 + 400, both counted.
        let result = try F.run(day, watchAndPhone)
        #expect(result.buckets[0].values.sum == 700)
    }

    @Test func priorityCountsOverlappedTimeOnce() throws {
        // Watch first: 300 for 10:00–10:30, plus the phone's uncovered half hour, 400 × 30/60 = 200.
        var query = day
        query.priority = ["watch", "phone"]
        #expect(close(try F.run(query, watchAndPhone).buckets[0].values.sum, 500))
        // Phone first: it covers the watch's whole half hour, so the watch adds nothing.
        query.priority = ["phone", "watch"]
        #expect(close(try F.run(query, watchAndPhone).buckets[0].values.sum, 400))
    }

    @Test func unlistedSourcesRankAfterListedOnes() throws {
        // A scale 10:45–11:15 with 60: 10:45–11:00 lies under the phone, 11:00–11:15 is free → 30.
        var query = day
        query.priority = ["watch", "phone"]
        let rows = watchAndPhone + [.init(source: "scale", start: "2020-06-18T10:45:00Z", end: "2020-06-18T11:15:00Z", value: 60)]
        #expect(close(try F.run(query, rows).buckets[0].values.sum, 530))
    }

    @Test func priorityProratesAcrossBuckets() throws {
        // Hourly buckets: watch 10:00–10:30 (300) in hour 10; phone's uncovered 10:30–11:00 → 200 in hour 10,
        // and a phone sample 10:50–11:10 (120): 10:50–11:00 is uncovered too (the watch stops at 10:30) → 60 + 60.
        var query = F.makeQuery(start: "2020-06-18T10:00:00Z", end: "2020-06-18T12:00:00Z", interval: .hour)
        query.priority = ["watch", "phone"]
        let rows = watchAndPhone + [.init(source: "phone", start: "2020-06-18T10:50:00Z", end: "2020-06-18T11:10:00Z", value: 120)]
        let result = try F.run(query, rows)
        #expect(close(result.buckets[0].values.sum, 560))
        #expect(close(result.buckets[1].values.sum, 60))
    }

    @Test func separateBySourceGivesEachSourceItsOwnSum() throws {
        // Per source: each source's own samples (priority is for the bucket total only).
        var query = day
        query.options = [.cumulativeSum, .separateBySource]
        query.priority = ["watch", "phone"]
        let bucket = try F.run(query, watchAndPhone).buckets[0]
        #expect(close(bucket.values.sum, 500))
        #expect(bucket.sources == [SourceStatistics(source: "phone", values: StatisticsValues(sum: 400)),
                                   SourceStatistics(source: "watch", values: StatisticsValues(sum: 300))])
    }

    @Test func emptyBucketsAreNilNotZero() throws {
        var query = F.makeQuery(start: "2020-06-15T00:00:00Z", end: "2020-06-22T00:00:00Z")
        query.options = [.cumulativeSum, .separateBySource]
        let result = try F.run(query, [.init(start: "2020-06-17T08:00:00Z", end: "2020-06-17T08:01:00Z", value: 0)])
        #expect(result.buckets.count == 7)
        #expect(result.buckets.map(\.values.sum) == [nil, nil, 0, nil, nil, nil, nil])
        #expect(result.buckets.map { $0.sources?.count } == [0, 0, 1, 0, 0, 0, 0])
    }

    @Test func metersConvertToKilometersAndMiles() throws {
        let rows: [F.Row] = [.init(start: "2020-06-18T08:00:00Z", end: "2020-06-18T08:30:00Z", value: 1_609.344),
                             .init(start: "2020-06-18T09:00:00Z", end: "2020-06-18T09:30:00Z", value: 390.656)]
        var query = day
        query.type = .distanceWalkingRunning
        query.unit = HealthUnit.named("km")
        let km = try F.run(query, rows)
        #expect(km.unit.symbol == "km")
        #expect(close(km.buckets[0].values.sum, 2))
        query.unit = HealthUnit.named("mi")
        let miles = try F.run(query, Array(rows.prefix(1)))
        #expect(close(miles.buckets[0].values.sum, 1))
        query.unit = nil
        #expect(try F.run(query, rows).unit == .meter)
    }

    @Test func filtersDropUserEnteredAndUnlistedSources() throws {
        let rows: [F.Row] = [.init(source: "watch", start: "2020-06-18T08:00:00Z", end: "2020-06-18T08:10:00Z", value: 100),
                             .init(source: "phone", start: "2020-06-18T09:00:00Z", end: "2020-06-18T09:10:00Z", value: 20),
                             .init(source: "phone", start: "2020-06-18T10:00:00Z", end: "2020-06-18T10:10:00Z", value: 3, userEntered: true)]
        var query = day
        #expect(try F.run(query, rows).buckets[0].values.sum == 123)
        query.excludeUserEntered = true
        #expect(try F.run(query, rows).buckets[0].values.sum == 120)
        query.sources = ["phone"]
        #expect(try F.run(query, rows).buckets[0].values.sum == 20)
    }

    @Test func onlyThePartInsideTheRangeCounts() throws {
        // 23:00 on the 17th to 01:00 on the 18th, 120 steps: only 00:00–01:00 is in range → 60.
        // A zero-length sample exactly at the range end is outside; one at the start is inside.
        let result = try F.run(day, [.init(start: "2020-06-17T23:00:00Z", end: "2020-06-18T01:00:00Z", value: 120),
                                     .init(start: "2020-06-19T00:00:00Z", end: "2020-06-19T00:00:00Z", value: 1_000),
                                     .init(start: "2020-06-18T00:00:00Z", end: "2020-06-18T00:00:00Z", value: 7)])
        #expect(close(result.buckets[0].values.sum, 67))
    }

    @Test func unsortedInputGivesTheSameBuckets() throws {
        var query = F.makeQuery(start: "2020-06-18T00:00:00Z", end: "2020-06-18T12:00:00Z", interval: .hour)
        query.priority = ["watch", "phone"]
        let rows = watchAndPhone + [.init(source: "watch", start: "2020-06-18T03:00:00Z", end: "2020-06-18T04:30:00Z", value: 90),
                                    .init(source: "phone", start: "2020-06-18T04:00:00Z", end: "2020-06-18T05:00:00Z", value: 60)]
        let sorted = try F.run(query, rows.sorted { $0.start < $1.start })
        let reversed = try F.run(query, rows.reversed())
        #expect(sorted == reversed)
        // Hour 3: 60 of the watch; hour 4: 30 of the watch + phone 04:30–05:00 → 30.
        #expect(sorted.buckets[3].values.sum == 60)
        #expect(close(sorted.buckets[4].values.sum, 60))
    }
}
