import Foundation

/// One patient's line of a care team's monthly worksheet: each 30-day period ending in the month, and the month's minutes.
public struct WorksheetRow: Hashable, Sendable {
    /// The patient's id.
    public var patient: String
    /// The periods that end in the month (by their last day, or the end day of an episode ended early), with their episode.
    public var periods: [WorksheetPeriod]
    /// The month's review minutes.
    public var minutes: MonthlyMinutes
    /// For a patient taken off the team since: the day they left, in their zone; their figures are as they stood then.
    public var leftTeamOn: CalendarDay?

    /// A row.
    public init(patient: String, periods: [WorksheetPeriod], minutes: MonthlyMinutes, leftTeamOn: CalendarDay? = nil) {
        self.patient = patient; self.periods = periods; self.minutes = minutes; self.leftTeamOn = leftTeamOn
    }
}

/// A period on the worksheet, with the episode it belongs to.
public struct WorksheetPeriod: Hashable, Sendable {
    /// The episode's id.
    public var episode: Int64
    /// The period and its figures.
    public var period: MonitoringPeriod
    /// A worksheet period.
    public init(episode: Int64, period: MonitoringPeriod) { self.episode = episode; self.period = period }

    /// The day the period ends: its 30th day, or the episode's end day when it ended early.
    public var endDay: CalendarDay { period.state == .endedEarly ? period.countedThrough : period.last }
}

extension MonitoringReader {
    /// The worksheet row of `patient` for the calendar month `first`…`last`, as of `now`.
    public func worksheetRow(of patient: PatientRecord, devices: [TokenRecord], readable: Set<SampleType>?, now: Date,
                             month first: CalendarDay, through last: CalendarDay) throws -> WorksheetRow {
        try row(of: patient, episodes: try monitoring.episodes(patient: patient.id), devices: devices, readable: readable, now: now,
                month: first, through: last, minutesThrough: last)
    }

    /// The row of a patient taken off the team at `left`, for a month up to the one they left in (in their zone; nil for
    /// a later month): their periods as they stood when they left (an episode begun later is not there, one ended later is
    /// still open, days with data count through the day they left) and the month's minutes through that day.
    public func departedWorksheetRow(of patient: PatientRecord, left: Date, devices: [TokenRecord], readable: Set<SampleType>?,
                                     month first: CalendarDay, through last: CalendarDay) throws -> WorksheetRow? {
        let leftDay = DeviceDays.day(of: left, in: Self.zone(of: patient))
        guard leftDay >= first else { return nil }
        let episodes = try monitoring.episodes(patient: patient.id).filter { $0.startDay <= leftDay }.map { episode in
            guard let end = episode.endDay, end > leftDay else { return episode }
            var open = episode
            open.endDay = nil; open.endedBy = nil; open.endedAt = nil
            return open
        }
        var row = try row(of: patient, episodes: episodes, devices: devices, readable: readable, now: left,
                          month: first, through: last, minutesThrough: min(last, leftDay))
        row.leftTeamOn = leftDay
        return row
    }

    /// The row from `episodes` as of `now`: periods ending `first`…`last`, minutes of `first`…`minutesThrough`.
    private func row(of patient: PatientRecord, episodes: [MonitoringEpisode], devices: [TokenRecord], readable: Set<SampleType>?,
                     now: Date, month first: CalendarDay, through last: CalendarDay, minutesThrough: CalendarDay) throws -> WorksheetRow {
        let periods = try self.periods(of: patient, episodes: episodes, devices: devices, readable: readable, now: now).flatMap { e in
            e.periods.map { WorksheetPeriod(episode: e.episode.id, period: $0) }
        }.filter { $0.endDay >= first && $0.endDay <= last }
        let minutes = try monitoring.minutes(patient: patient.id, from: first, through: minutesThrough).reduce(0) { $0 + $1.minutes }
        return WorksheetRow(patient: patient.id, periods: periods, minutes: MonthlyMinutes(year: first.year, month: first.month, total: minutes))
    }
}
