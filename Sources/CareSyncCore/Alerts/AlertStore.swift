import Foundation

/// Why an alert-store write was refused.
public enum AlertStoreError: Error, Hashable, Sendable {
    /// The alert is resolved already: it can be neither acknowledged nor resolved again.
    case alreadyResolved
}

/// Which alerts to list.
public struct AlertQuery: Hashable, Sendable {
    /// Only this care team's (nil: any).
    public var careTeam: String?
    /// Only this patient's (nil: any).
    public var patient: String?
    /// Only in this state (nil: any).
    public var state: AlertState?
    /// The most to return, newest first.
    public var limit: Int
    /// With `careTeam`: only alerts about the team's patients now (a patient taken off the team leaves its lists).
    public var membersOnly: Bool
    /// A query.
    public init(careTeam: String? = nil, patient: String? = nil, state: AlertState? = nil, limit: Int = 500, membersOnly: Bool = false) {
        self.careTeam = careTeam; self.patient = patient; self.state = state; self.limit = limit; self.membersOnly = membersOnly
    }
}

/// Care teams' alert rules and the alerts they raised (docs/alerts.md), keyed by patient id. Methods are blocking and
/// thread-safe; each write is one transaction that also records its webhook outbox entries (`alert.raised`, `alert.resolved`).
public protocol AlertStore: Sendable {
    /// The team's rules, or nil when it never set any (then `AlertRules.defaults` apply).
    func rules(careTeam: String) throws -> AlertRules?
    /// Replaces the team's rules.
    func setRules(_ rules: AlertRules, careTeam: String) throws
    /// Alerts matching `query`, newest raised first, then by id.
    func alerts(_ query: AlertQuery) throws -> [Alert]
    /// One alert, or nil.
    func alert(id: String) throws -> Alert?
    /// The team's alerts of the patient that the next evaluation weighs: unresolved ones, and those a therapist resolved
    /// that were not rearmed yet.
    func current(careTeam: String, patient: String) throws -> [Alert]
    /// Applies an evaluation's plan in one transaction: raises each new alert unless one is unresolved for its team, patient,
    /// rule and subject; resolves the listed ones still unresolved; rearms the listed ones. Returns the events that happened.
    func apply(_ plan: AlertPlan) throws -> [AlertEvent]
    /// Marks an open alert acknowledged (an acknowledged one stays as it was); nil when there is none; `alreadyResolved`.
    func acknowledge(id: String, by token: String, at: Date) throws -> Alert?
    /// Resolves an unresolved alert by a therapist; nil when there is none; `alreadyResolved`.
    func resolve(id: String, by token: String, at: Date) throws -> Alert?
}
