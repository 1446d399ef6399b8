import Foundation

/// The figures the rules look at, all computed by the status and monitoring readers (docs/alerts.md).
public struct AlertFigures: Sendable {
    /// The patient's status, computed with the team's silence threshold.
    public var status: PatientStatus
    /// The periods of the patient's open episode (empty when none is open), with the episode's id.
    public var openEpisode: (id: Int64, periods: [MonitoringPeriod])?
    /// The last full week's steps (`thisWeek`) and the week before (`lastWeek`), weeks from Monday in the patient's zone.
    public var lastFullWeeks: WeekTotals?

    /// Figures.
    public init(status: PatientStatus, openEpisode: (id: Int64, periods: [MonitoringPeriod])?, lastFullWeeks: WeekTotals?) {
        self.status = status; self.openEpisode = openEpisode; self.lastFullWeeks = lastFullWeeks
    }
}

/// Which rules hold for a patient: pure functions of the figures and a team's rules.
public enum AlertConditions {
    /// Every key whose enabled rule holds.
    public static func holding(_ figures: AlertFigures, rules: AlertRules) -> Set<AlertKey> {
        var keys = Set<AlertKey>()
        if rules.deviceSilentEnabled {
            for source in figures.status.sources where source.silent { keys.insert(AlertKey(rule: .deviceSilent, subject: source.source)) }
        }
        if let episode = figures.openEpisode, let period = episode.periods.last, period.state == .inProgress {
            let subject = "episode-\(episode.id)/period-\(period.number)"
            if rules.periodCannotReach16Enabled && !period.canReach16 { keys.insert(AlertKey(rule: .periodCannotReach16, subject: subject)) }
            if rules.periodBehindPaceEnabled && !period.onPace { keys.insert(AlertKey(rule: .periodBehindPace, subject: subject)) }
        }
        if rules.weeklyStepsDropEnabled, let weeks = figures.lastFullWeeks,
           stepsDropped(latest: weeks.thisWeek, before: weeks.lastWeek, percent: rules.weeklyStepsDropPercent) {
            keys.insert(AlertKey(rule: .weeklyStepsDrop, subject: weeks.type.rawValue))
        }
        if rules.walkTestDropEnabled, let change = figures.status.walkTest?.change, change < -rules.walkTestDropMeters {
            keys.insert(AlertKey(rule: .walkTestDrop, subject: SampleType.sixMinuteWalkTestDistance.rawValue))
        }
        return keys
    }

    /// Whether `latest` is below `before` by more than `percent` % of `before`; a week without samples counts as 0, and
    /// nothing holds when the week before had none.
    public static func stepsDropped(latest: Double?, before: Double?, percent: Double) -> Bool {
        guard let before, before > 0 else { return false }
        return (before - (latest ?? 0)) / before * 100 > percent
    }
}
