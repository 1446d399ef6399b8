import Foundation

/// One patient's line of a care team's monthly worksheet: each 30-day period ending in the month, and the month's minutes.
public struct WorksheetRow: Hashable, Sendable {
    /// The patient's id.
    public var patient: String
    /// The periods that end in the month (by their last day, or the end day of an episode ended early), with their episode.
    public var periods: [WorksheetPeriod]
    /// The month's review minutes.
    public var minutes: MonthlyMinutes

    /// A row.
    public init(patient: String, periods: [WorksheetPeriod], minutes: MonthlyMinutes) {
        self.patient = patient; self.periods = periods; self.minutes = minutes
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
        let periods = try episodes(of: patient, devices: devices, readable: readable, now: now).flatMap { e in
            e.periods.map { WorksheetPeriod(episode: e.episode.id, period: $0) }
        }.filter { $0.endDay >= first && $0.endDay <= last }
        let minutes = try monitoring.minutes(patient: patient.id, from: first, through: last).reduce(0) { $0 + $1.minutes }
        return WorksheetRow(patient: patient.id, periods: periods, minutes: MonthlyMinutes(year: first.year, month: first.month, total: minutes))
    }
}
