import Foundation
import Testing
@testable import CareSyncCore

/// Buckets on the calendar of a time zone: DST days, weeks anchored on Monday, months, custom anchors.
@Suite struct StatisticsCalendarTests {
    typealias F = StatisticsFixtures

    func hours(_ bucket: StatisticsBucket) -> Double { bucket.end.timeIntervalSince(bucket.start) / 3_600 }

    @Test func springForwardInLosAngelesIsA23HourDay() throws {
        // 2020-03-08 02:00 PST became 03:00 PDT. A 23 h sample from 03-07 12:00 PST (20:00Z) to
        // 03-08 12:00 PDT (19:00Z): 12 h on the 7th (20:00Z–08:00Z), 11 h on the 8th (08:00Z–19:00Z).
        let query = F.makeQuery(start: "2020-03-07T00:00:00-08:00", end: "2020-03-10T00:00:00-07:00",
                                timeZone: "America/Los_Angeles")
        let result = try F.run(query, [.init(start: "2020-03-07T12:00:00-08:00", end: "2020-03-08T12:00:00-07:00", value: 2_300)])
        #expect(result.buckets.map(hours) == [24, 23, 24])
        #expect(result.buckets[1].start == F.date("2020-03-08T08:00:00Z"))
        #expect(result.buckets[1].end == F.date("2020-03-09T07:00:00Z"))
        #expect(close(result.buckets[0].values.sum, 1_200))
        #expect(close(result.buckets[1].values.sum, 1_100))
        #expect(result.buckets[2].values.sum == nil)
    }

    @Test func fallBackInLosAngelesIsA25HourDay() throws {
        // 2020-11-01 02:00 PDT became 01:00 PST. A 25 h sample filling the day counts whole; a 9 h one
        // from 20:00 PST (04:00Z) to 05:00 PST next day (13:00Z) splits 4 h / 5 h: 400 and 500.
        let query = F.makeQuery(start: "2020-11-01T00:00:00-07:00", end: "2020-11-03T00:00:00-08:00",
                                timeZone: "America/Los_Angeles")
        let result = try F.run(query, [
            .init(start: "2020-11-01T00:00:00-07:00", end: "2020-11-02T00:00:00-08:00", value: 2_500),
            .init(start: "2020-11-01T20:00:00-08:00", end: "2020-11-02T05:00:00-08:00", value: 900),
        ])
        #expect(result.buckets.map(hours) == [25, 24])
        #expect(close(result.buckets[0].values.sum, 2_900))
        #expect(close(result.buckets[1].values.sum, 500))
    }

    @Test func springForwardInBerlinHas23HourlyBuckets() throws {
        // 2020-03-29 02:00 CET became 03:00 CEST: the local day has 23 hours, each gets 60 of a 23 h sample worth 1,380.
        let query = F.makeQuery(start: "2020-03-29T00:00:00+01:00", end: "2020-03-30T00:00:00+02:00",
                                interval: .hour, timeZone: "Europe/Berlin")
        let result = try F.run(query, [.init(start: "2020-03-29T00:00:00+01:00", end: "2020-03-30T00:00:00+02:00", value: 1_380)])
        #expect(result.buckets.count == 23)
        #expect(result.buckets.allSatisfy { close($0.values.sum, 60) })
        let days = try F.run(F.makeQuery(start: "2020-03-28T00:00:00+01:00", end: "2020-03-31T00:00:00+02:00",
                                         timeZone: "Europe/Berlin"), [])
        #expect(days.buckets.map(hours) == [24, 23, 24])
    }

    @Test func fallBackInBerlinIsA25HourDay() throws {
        // 2020-10-25 03:00 CEST became 02:00 CET: the day is 22:00Z–23:00Z next day. A 13 h sample
        // from 12:00 CET (11:00Z) to 01:00 CET on the 26th (00:00Z): 12 h on the 25th, 1 h on the 26th.
        let query = F.makeQuery(start: "2020-10-25T00:00:00+02:00", end: "2020-10-27T00:00:00+01:00",
                                timeZone: "Europe/Berlin")
        let result = try F.run(query, [.init(start: "2020-10-25T12:00:00+01:00", end: "2020-10-26T01:00:00+01:00", value: 1_300)])
        #expect(result.buckets.map(hours) == [25, 24])
        #expect(result.buckets[0].start == F.date("2020-10-24T22:00:00Z"))
        #expect(close(result.buckets[0].values.sum, 1_200))
        #expect(close(result.buckets[1].values.sum, 100))
        let hourly = try F.run(F.makeQuery(start: "2020-10-25T00:00:00+02:00", end: "2020-10-26T00:00:00+01:00",
                                           interval: .hour, timeZone: "Europe/Berlin"), [])
        #expect(hourly.buckets.count == 25)
    }

    @Test func weeksInTokyoStartOnMonday() throws {
        // Wednesday 2020-06-10 to Tuesday 2020-06-30 in Tokyo (UTC+9): weeks start Mondays 06-15, 06-22,
        // 06-29 at 00:00 JST (15:00Z the day before); the first and last are cut to the range.
        // A 2 h sample across Monday 06-22 00:00 JST splits 5 / 5.
        let query = F.makeQuery(start: "2020-06-10T00:00:00+09:00", end: "2020-06-30T00:00:00+09:00",
                                interval: .week, timeZone: "Asia/Tokyo")
        let result = try F.run(query, [.init(start: "2020-06-21T23:00:00+09:00", end: "2020-06-22T01:00:00+09:00", value: 10)])
        #expect(result.buckets.map(\.start) == ["2020-06-09T15:00:00Z", "2020-06-14T15:00:00Z", "2020-06-21T15:00:00Z",
                                               "2020-06-28T15:00:00Z"].map(F.date))
        #expect(result.buckets.last?.end == F.date("2020-06-29T15:00:00Z"))
        #expect(result.buckets.map(\.values.sum) == [nil, 5, 5, nil])
    }

    @Test func monthsFollowTheCalendar() throws {
        // 2020 in Los Angeles: January 744 h, February 696 h (leap year), March 743 h (spring forward).
        // A 24 h sample from Jan 31 12:00 to Feb 1 12:00 PST splits 12 / 12.
        let query = F.makeQuery(start: "2020-01-01T00:00:00-08:00", end: "2020-04-01T00:00:00-07:00",
                                interval: .month, timeZone: "America/Los_Angeles")
        let result = try F.run(query, [.init(start: "2020-01-31T12:00:00-08:00", end: "2020-02-01T12:00:00-08:00", value: 24)])
        #expect(result.buckets.map(hours) == [744, 696, 743])
        #expect(result.buckets.map(\.values.sum) == [12, 12, nil])
    }

    @Test func anchorDateSetsThePhaseOfDays() throws {
        // Days anchored at 06:00 UTC: a range from 00:00 gives a cut bucket 00:00–06:00, then 06:00–06:00.
        let query = F.makeQuery(start: "2020-06-01T00:00:00Z", end: "2020-06-02T12:00:00Z",
                                anchorDate: "2019-01-01T06:00:00Z")
        let result = try F.run(query, [.init(start: "2020-06-01T05:00:00Z", end: "2020-06-01T07:00:00Z", value: 8)])
        #expect(result.buckets.map(\.start) == ["2020-06-01T00:00:00Z", "2020-06-01T06:00:00Z", "2020-06-02T06:00:00Z"].map(F.date))
        #expect(result.buckets.map(\.values.sum) == [4, 4, nil])
    }

    @Test func monthsAnchoredOnThe31stDoNotDrift() throws {
        // Each boundary is anchor + k months, clamped to the month's end: Jan 31, Feb 29, Mar 31, Apr 30
        // (stepping from Feb 29 would drift to Mar 29).
        let query = F.makeQuery(start: "2020-01-31T00:00:00Z", end: "2020-05-01T00:00:00Z", interval: .month,
                                anchorDate: "2019-12-31T00:00:00Z")
        let result = try F.run(query, [])
        #expect(result.buckets.map(\.start) == ["2020-01-31T00:00:00Z", "2020-02-29T00:00:00Z", "2020-03-31T00:00:00Z",
                                               "2020-04-30T00:00:00Z"].map(F.date))
        #expect(result.buckets.allSatisfy { $0.values.sum == nil })
    }

    @Test func hoursInKolkataKeepTheHalfHourOffset() throws {
        // UTC+5:30, default anchor Monday 00:00 IST: hour buckets start at :30 UTC. 30 steps 10:00–11:00Z
        // split 15 / 15 across 09:30–10:30Z and 10:30–11:30Z.
        let query = F.makeQuery(start: "2020-06-18T09:30:00Z", end: "2020-06-18T11:30:00Z", interval: .hour,
                                timeZone: "Asia/Kolkata")
        let result = try F.run(query, [.init(start: "2020-06-18T10:00:00Z", end: "2020-06-18T11:00:00Z", value: 30)])
        #expect(result.buckets.map(\.start) == ["2020-06-18T09:30:00Z", "2020-06-18T10:30:00Z"].map(F.date))
        #expect(result.buckets.map(\.values.sum) == [15, 15])
    }
}
