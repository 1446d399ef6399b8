/// The conditions an alert can be raised for (docs/alerts.md).
public enum AlertRule: String, CaseIterable, Hashable, Sendable {
    /// A device source has sent nothing for longer than the team's hours (or never).
    case deviceSilent
    /// The open episode's period in progress can no longer reach 16 days with data.
    case periodCannotReach16
    /// The open episode's period in progress is behind the pace of 16 days in 30.
    case periodBehindPace
    /// The last full week's steps are down by more than the team's percentage from the week before.
    case weeklyStepsDrop
    /// The latest six-minute walk is shorter than the previous one by more than the team's metres.
    case walkTestDrop
}

/// What one alert is about: a rule and its subject (a source, a period, a type), per care team and patient.
public struct AlertKey: Hashable, Sendable {
    /// The rule.
    public var rule: AlertRule
    /// The subject within the patient: a source for `deviceSilent`, `episode-E/period-N` for the period rules, a sample type else.
    public var subject: String
    /// A key.
    public init(rule: AlertRule, subject: String) { self.rule = rule; self.subject = subject }
}
