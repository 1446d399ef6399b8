import Foundation

/// Where an alert stands.
public enum AlertState: String, CaseIterable, Hashable, Sendable {
    /// Raised, not yet seen.
    case open
    /// A therapist has seen it; still unresolved, so not raised again.
    case acknowledged
    /// Resolved by a therapist or because its condition cleared.
    case resolved
}

/// One alert: a rule holding for a patient under a care team's rules, raised once and kept after it is resolved.
public struct Alert: Hashable, Sendable {
    /// Its id (`alert_<uuid>`).
    public var id: String
    /// The care team whose rules raised it.
    public var careTeam: String
    /// The patient.
    public var patient: String
    /// The rule and its subject.
    public var key: AlertKey
    /// Where it stands.
    public var state: AlertState
    /// When it was raised (server time).
    public var raisedAt: Date
    /// When a therapist acknowledged it, and who.
    public var acknowledgedAt: Date?
    /// The token that acknowledged it.
    public var acknowledgedBy: String?
    /// When it was resolved.
    public var resolvedAt: Date?
    /// The token that resolved it; nil with `resolvedAt` set: resolved because its condition cleared.
    public var resolvedBy: String?
    /// For an alert a therapist resolved while its condition held: when the condition cleared afterwards (until then the
    /// rule is not raised again for the same subject).
    public var rearmedAt: Date?

    /// A newly raised alert.
    public init(id: String, careTeam: String, patient: String, key: AlertKey, raisedAt: Date) {
        self.id = id; self.careTeam = careTeam; self.patient = patient; self.key = key; self.state = .open; self.raisedAt = raisedAt
    }

    /// A new alert id.
    public static func makeID() -> String { "alert_" + UUID().uuidString.lowercased() }
}

/// What a webhook receiver is told about an alert: never a sample value or a figure.
public struct AlertEvent: Hashable, Sendable {
    /// Raised or resolved.
    public enum Kind: String, Hashable, Sendable {
        /// `alert.raised`.
        case raised = "alert.raised"
        /// `alert.resolved`.
        case resolved = "alert.resolved"
    }
    /// What happened.
    public var kind: Kind
    /// The alert's id.
    public var alertID: String
    /// The patient.
    public var patient: String
    /// The care team whose rules raised it.
    public var careTeam: String
    /// The rule.
    public var rule: AlertRule
    /// When it happened.
    public var time: Date

    /// An event about `alert`.
    public init(_ kind: Kind, _ alert: Alert, at time: Date) {
        self.kind = kind; alertID = alert.id; patient = alert.patient; careTeam = alert.careTeam; rule = alert.key.rule; self.time = time
    }
}
