import CareSyncCore
import Testing

/// 30-day periods rolled from an episode's start: states, days left, pace, an episode ended early, minute bands.
struct MonitoringPeriodsTests {
    static func day(_ text: String) -> CalendarDay { CalendarDay(parsing: text)! }
    static func episode(_ start: String, end: String? = nil) -> MonitoringEpisode {
        MonitoringEpisode(patient: "p", startDay: day(start), endDay: end.map(day), startedBy: "t", startedAt: .distantPast)
    }

    @Test func periodsRollEveryThirtyDaysFromTheStart() {
        let withData = Set((0..<20).map { Self.day("2020-01-01").adding(days: $0) })
        let periods = MonitoringPeriods.periods(of: Self.episode("2020-01-01"), today: Self.day("2020-02-05"), withData: withData)
        #expect(periods.map(\.first) == [Self.day("2020-01-01"), Self.day("2020-01-31")])
        #expect(periods.map(\.last) == [Self.day("2020-01-30"), Self.day("2020-02-29")])
        #expect(periods.map(\.state) == [.complete, .inProgress])
        #expect(periods.map(\.daysWithData) == [20, 0])
        #expect(periods[0].canReach16 && periods[0].onPace && periods[0].daysLeft == 0)
        // Day 6 of period 2, none with data: 24 days left plus today still reach 16, but behind pace.
        #expect(periods[1].daysLeft == 24 && periods[1].canReach16 && !periods[1].onPace)
    }

    @Test func aPeriodThatCanNoLongerReachSixteen() {
        let periods = MonitoringPeriods.periods(of: Self.episode("2020-01-01"), today: Self.day("2020-01-16"), withData: [])
        // 14 days left after today, plus today: 15 < 16.
        #expect(periods.count == 1 && periods[0].daysLeft == 14 && !periods[0].canReach16)
    }

    @Test func anEpisodeEndedEarlyStopsCounting() {
        let withData: Set = [Self.day("2020-01-02"), Self.day("2020-01-12")]
        let periods = MonitoringPeriods.periods(of: Self.episode("2020-01-01", end: "2020-01-10"), today: Self.day("2020-03-01"), withData: withData)
        #expect(periods.count == 1)
        #expect(periods[0].state == .endedEarly && periods[0].countedThrough == Self.day("2020-01-10") && periods[0].daysWithData == 1)
        #expect(periods[0].daysLeft == 0 && !periods[0].canReach16)
    }

    @Test func bandsOfMonthlyMinutes() {
        #expect([0, 9, 10, 19, 20, 39, 40, 400].map { MinutesBand(total: $0).rawValue }
                == ["under10", "under10", "10to19", "10to19", "20to39", "20to39", "40plus", "40plus"])
    }
}
