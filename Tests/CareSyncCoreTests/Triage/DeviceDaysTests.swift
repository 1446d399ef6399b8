import CareSyncCore
import Foundation
import Testing

/// Days with data (`SampleDayTally`'s starts) and gaps in a patient's zone, across a DST change.
struct DeviceDaysTests {
    static let losAngeles = TimeZone(identifier: "America/Los_Angeles")!
    static func day(_ text: String) -> CalendarDay { CalendarDay(parsing: text)! }
    static func instant(_ text: String) -> Date { RFC3339.parse(text)! }

    /// The days from `first` through `last` on which one of `starts` falls, as a tally of zero-length samples counts them.
    static func days(starting starts: [Date], in zone: TimeZone, from first: CalendarDay, through last: CalendarDay) -> Set<CalendarDay> {
        var tally = SampleDayTally(zone: zone, from: first, through: last)
        for start in starts {
            let ms = SyncRules.milliseconds(start)
            tally.add(source: "org.example.phone", type: .heartRate, start: ms, end: ms, value: 60)
        }
        return Set(tally.days.filter { $0.starts > 0 }.map(\.day))
    }

    @Test func aStartCountsOnItsLocalDayAcrossTheSpringForwardNight() {
        // 2020-03-08 02:00 PST jumps to 03:00 PDT (a 23-hour day). 07:59Z on the 8th is 23:59 PST on the 7th; 08:00Z is
        // 00:00 PST on the 8th; 2020-03-09T06:59Z is 23:59 PDT on the 8th; 07:00Z is 00:00 PDT on the 9th.
        let starts = [Self.instant("2020-03-08T07:59:00Z"), Self.instant("2020-03-08T08:00:00Z"), Self.instant("2020-03-09T06:59:00Z"),
                      Self.instant("2020-03-09T07:00:00Z")]
        let days = Self.days(starting: starts, in: Self.losAngeles, from: Self.day("2020-03-01"), through: Self.day("2020-03-31"))
        #expect(days == [Self.day("2020-03-07"), Self.day("2020-03-08"), Self.day("2020-03-09")])
    }

    /// The window's boundaries answer what a calendar call per start answers, in zones with DST, a half-hour offset
    /// and a date-line change, for random instants in and around the window.
    @Test(arguments: ["America/Los_Angeles", "Europe/Berlin", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Apia"])
    func boundariesAgreeWithTheDayOfEachStart(zoneName: String) throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        var random = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let first = CalendarDay(daysSince1970: Int.random(in: 14_000...21_000, using: &random))
            let last = first.adding(days: Int.random(in: 0...60, using: &random))
            let from = first.start(in: zone).timeIntervalSince1970 - 3 * 86_400
            let to = last.start(in: zone).timeIntervalSince1970 + 4 * 86_400
            // Random instants, and each midnight of the window and the second before it.
            let midnights = (0...(last.daysSince1970 - first.daysSince1970 + 1)).map { first.adding(days: $0).start(in: zone) }
            let starts = (0..<400).map { _ in Date(timeIntervalSince1970: Double.random(in: from...to, using: &random).rounded()) }
                + midnights + midnights.map { $0 - 1 }
            let expected = Set(starts.map { DeviceDays.day(of: $0, in: zone) }.filter { $0 >= first && $0 <= last })
            #expect(Self.days(starting: starts, in: zone, from: first, through: last) == expected, "\(zoneName) \(first)…\(last)")
            // One start at a time at the edges, where a set of many could hide a start counted on its neighbour.
            for edge in midnights + midnights.map({ $0 - 1 }) {
                let day = DeviceDays.day(of: edge, in: zone)
                #expect(Self.days(starting: [edge], in: zone, from: first, through: last) == (day >= first && day <= last ? [day] : []),
                        "\(zoneName) \(edge)")
            }
        }
    }

    /// The kept day starts place an instant on the day Foundation's calendar names, at random and at every edge.
    @Test(arguments: ["America/Los_Angeles", "Europe/Berlin", "Asia/Kathmandu", "Australia/Lord_Howe", "Pacific/Apia", "America/Havana"])
    func keptDayStartsAgreeWithTheCalendar(zoneName: String) throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        var random = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let instant = Date(timeIntervalSince1970: Double(Int.random(in: -100_000_000...2_000_000_000, using: &random)))
            let day = DeviceDays.day(of: instant, in: zone)
            let edges = [day.start(in: zone), day.adding(days: 1).start(in: zone)]
            for probe in [instant] + edges + edges.map({ $0 - 0.001 }) {
                #expect(LocalDayStarts.day(of: SyncRules.milliseconds(probe), in: zone) == DeviceDays.day(of: probe, in: zone), "\(zoneName) \(probe)")
            }
            #expect(LocalDayStarts.start(of: day, in: zone) == SyncRules.milliseconds(day.start(in: zone)), "\(zoneName) \(day)")
        }
    }

    @Test func startsOutsideTheWindowDoNotCount() {
        let days = Self.days(starting: [Self.instant("2020-03-01T07:59:00Z")], in: Self.losAngeles,
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
