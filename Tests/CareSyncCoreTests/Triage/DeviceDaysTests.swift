import CareSyncCore
import Foundation
import Testing

/// Days with data and gaps in a patient's zone, across a DST change.
struct DeviceDaysTests {
    static let losAngeles = TimeZone(identifier: "America/Los_Angeles")!
    static func day(_ text: String) -> CalendarDay { CalendarDay(parsing: text)! }
    static func instant(_ text: String) -> Date { RFC3339.parse(text)! }

    @Test func aStartCountsOnItsLocalDayAcrossTheSpringForwardNight() {
        // 2020-03-08 02:00 PST jumps to 03:00 PDT (a 23-hour day). 07:59Z on the 8th is 23:59 PST on the 7th; 08:00Z is
        // 00:00 PST on the 8th; 2020-03-09T06:59Z is 23:59 PDT on the 8th; 07:00Z is 00:00 PDT on the 9th.
        let starts = [Self.instant("2020-03-08T07:59:00Z"), Self.instant("2020-03-08T08:00:00Z"), Self.instant("2020-03-09T06:59:00Z"),
                      Self.instant("2020-03-09T07:00:00Z")]
        let days = DeviceDays.days(starting: starts, in: Self.losAngeles, from: Self.day("2020-03-01"), through: Self.day("2020-03-31"))
        #expect(days == [Self.day("2020-03-07"), Self.day("2020-03-08"), Self.day("2020-03-09")])
    }

    @Test func startsOutsideTheWindowDoNotCount() {
        let days = DeviceDays.days(starting: [Self.instant("2020-03-01T07:59:00Z")], in: Self.losAngeles,
                                   from: Self.day("2020-03-01"), through: Self.day("2020-03-02"))
        #expect(days.isEmpty)
    }

    @Test func gapsAreTheRunsWithoutData() {
        let withData: Set = [Self.day("2020-03-02"), Self.day("2020-03-05")]
        let gaps = DeviceDays.gaps(withData: withData, from: Self.day("2020-03-01"), through: Self.day("2020-03-07"))
        #expect(gaps == [DayRun(first: Self.day("2020-03-01"), last: Self.day("2020-03-01")),
                         DayRun(first: Self.day("2020-03-03"), last: Self.day("2020-03-04")),
                         DayRun(first: Self.day("2020-03-06"), last: Self.day("2020-03-07"))])
        #expect(gaps.map(\.days) == [1, 2, 2])
        #expect(DeviceDays.gaps(withData: [], from: Self.day("2020-02-28"), through: Self.day("2020-03-01")).map(\.days) == [3])
    }

    @Test func attentionWeighsSilenceAboveMissingDays() {
        let silent = Attention(silentSources: 1, noDevice: false, daysWithoutDataLastWeek: 0, walkDeclined: false)
        let missing = Attention(silentSources: 0, noDevice: false, daysWithoutDataLastWeek: 7, walkDeclined: true)
        #expect(silent.score == 100 && missing.score == 75)
        #expect(Attention(silentSources: 0, noDevice: true, daysWithoutDataLastWeek: 7, walkDeclined: false).score == 170)
    }
}
