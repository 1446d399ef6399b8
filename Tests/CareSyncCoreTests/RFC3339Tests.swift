import Foundation
import Testing
@testable import CareSyncCore

@Suite struct RFC3339Tests {
    @Test(arguments: [
        ("2020-06-18T09:30:00Z", Int64(1_592_472_600_000)),
        ("2020-06-18t09:30:00z", 1_592_472_600_000),
        ("2020-06-18T10:00:00-07:00", 1_592_499_600_000),
        ("2020-06-18T10:00:00+05:30", 1_592_454_600_000),
        ("2020-06-18T09:30:00.5Z", 1_592_472_600_500),
        ("2020-06-18T09:30:00.123456789Z", 1_592_472_600_123),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59.999Z", -1),
        ("2020-02-29T00:00:00Z", 1_582_934_400_000),
    ])
    func parses(text: String, millis: Int64) {
        #expect(RFC3339.parseMilliseconds(text) == millis)
    }

    @Test(arguments: ["2020-06-18T09:30:00", "2020-06-18 09:30:00Z", "2020-06-18", "2020-06-18T09:30Z",
                      "2020-13-01T00:00:00Z", "2019-02-29T00:00:00Z", "2020-06-31T00:00:00Z", "2020-06-18T24:00:00Z",
                      "2020-06-18T09:60:00Z", "2020-06-18T09:30:60Z", "2020-06-18T09:30:00.Z", "2020-06-18T09:30:00+0700",
                      "2020-06-18T09:30:00+24:00", "2020-06-18T09:30:00Zjunk", "20-06-18T09:30:00Z", "", "0000-01-01T00:00:00Z"])
    func rejects(text: String) {
        #expect(RFC3339.parse(text) == nil)
    }

    @Test func formatsUTCWithExactlyThreeFractionalDigits() throws {
        #expect(RFC3339.format(try #require(RFC3339.parse("2020-06-18T10:00:00-07:00"))) == "2020-06-18T17:00:00.000Z")
        #expect(RFC3339.format(try #require(RFC3339.parse("2020-06-18T10:00:00.25Z"))) == "2020-06-18T10:00:00.250Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
        // Finer than a millisecond is truncated, never rounded up.
        #expect(RFC3339.format(try #require(RFC3339.parse("2020-06-18T10:00:00.9999Z"))) == "2020-06-18T10:00:00.999Z")
    }

    @Test func calendarDays() throws {
        #expect(CalendarDay(parsing: "2020-06-15") == CalendarDay(year: 2020, month: 6, day: 15))
        #expect(CalendarDay(parsing: "2020-6-15") == nil)
        #expect(CalendarDay(parsing: "2021-02-29") == nil)
        #expect(CalendarDay(year: 2020, month: 12, day: 28).adding(days: 7).description == "2021-01-04")
        // Every day's text parses back to the day, zero-padded; years outside four digits keep RFC3339.pad's form.
        for days in stride(from: -719_162, through: 2_932_896, by: 1_009) {
            let day = CalendarDay(daysSince1970: days)
            #expect(CalendarDay(parsing: day.description) == day && day.description.count == 10, "\(day.year)-\(day.month)-\(day.day)")
        }
        #expect(CalendarDay(year: 7, month: 3, day: 9).description == "0007-03-09")
        #expect(CalendarDay(year: 12_345, month: 1, day: 2).description == "12345-01-02")
        #expect(CalendarDay(year: 1970, month: 1, day: 1).daysSince1970 == 0)
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            #expect(CalendarDay(daysSince1970: days).daysSince1970 == days)
        }
        let la = try #require(TimeZone(identifier: "America/Los_Angeles"))
        #expect(RFC3339.format(CalendarDay(year: 2020, month: 6, day: 15).start(in: la)) == "2020-06-15T07:00:00.000Z")
        // The day clocks spring forward is 23 hours long.
        let spring = CalendarDay(year: 2021, month: 3, day: 14)
        #expect(spring.adding(days: 1).start(in: la).timeIntervalSince(spring.start(in: la)) == 23 * 3600)
    }
}
