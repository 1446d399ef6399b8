import Foundation

/// What one evaluation of a team's rules for a patient changes: alerts to raise, to resolve (condition cleared) and to rearm.
public struct AlertPlan: Hashable, Sendable {
    /// New alerts, each raised unless one is unresolved for its key meanwhile.
    public var raise: [Alert] = []
    /// Ids of unresolved alerts whose condition cleared.
    public var resolve: [String] = []
    /// Ids of therapist-resolved alerts whose condition cleared: their rule may be raised again.
    public var rearm: [String] = []
    /// When the evaluation ran.
    public var now: Date

    /// An empty plan at `now`.
    public init(now: Date) { self.now = now }

    /// Whether it changes nothing.
    public var isEmpty: Bool { raise.isEmpty && resolve.isEmpty && rearm.isEmpty }

    /// The plan for `patient` under `careTeam`'s rules, given the `current` alerts (`AlertStore.current`) and the keys whose
    /// condition `holding` now. A key is raised once: not while an alert of it is unresolved, nor after a therapist resolved
    /// it until its condition has cleared once. An unresolved alert whose key no longer holds resolves automatically.
    public static func reconcile(careTeam: String, patient: String, current: [Alert], holding: Set<AlertKey>, now: Date,
                                 makeID: () -> String = Alert.makeID) -> AlertPlan {
        var plan = AlertPlan(now: now)
        var blocked = Set<AlertKey>()
        for alert in current {
            let holds = holding.contains(alert.key)
            if alert.state != .resolved {
                if holds { blocked.insert(alert.key) } else { plan.resolve.append(alert.id) }
            } else if alert.resolvedBy != nil && alert.rearmedAt == nil {
                if holds { blocked.insert(alert.key) } else { plan.rearm.append(alert.id) }
            }
        }
        for key in holding.sorted(by: { ($0.rule.rawValue, $0.subject) < ($1.rule.rawValue, $1.subject) }) where !blocked.contains(key) {
            plan.raise.append(Alert(id: makeID(), careTeam: careTeam, patient: patient, key: key, raisedAt: now))
        }
        return plan
    }
}
