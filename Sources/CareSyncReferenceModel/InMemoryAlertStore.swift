import CareSyncCore
import Foundation
import CareSyncLocking

/// An `AlertStore` in memory: the oracle the alert contract suite holds the database stores to. Its events go to the outbox
/// of `sync`, when given.
public final class InMemoryAlertStore: AlertStore {
    private struct State {
        var rules: [String: AlertRules] = [:]
        var alerts: [String: Alert] = [:]
    }
    private let state = Locked(State())
    private let sync: InMemorySyncStore?
    /// The care teams' memberships (`AlertQuery.membersOnly`; nil: no team has members).
    private let access: InMemoryAccessStore?

    /// An empty store whose events go to `sync`'s webhook outbox (nil: nowhere), with `access`'s care teams.
    public init(sync: InMemorySyncStore? = nil, access: InMemoryAccessStore? = nil) { self.sync = sync; self.access = access }

    public func rules(careTeam: String) throws -> AlertRules? { state.withLock { $0.rules[careTeam] } }

    public func setRules(_ rules: AlertRules, careTeam: String) throws { state.withLock { $0.rules[careTeam] = rules } }

    public func alerts(_ q: AlertQuery) throws -> [Alert] {
        let members: [String: Int64]? = q.membersOnly ? (try q.careTeam.flatMap { try access?.careTeamMembers($0) } ?? [:]) : nil
        return state.withLock { s in
            Array(s.alerts.values.filter { (a: Alert) -> Bool in
                (q.careTeam == nil || a.careTeam == q.careTeam) && (q.patient == nil || a.patient == q.patient)
                    && (q.state == nil || a.state == q.state) && (members.map { $0[a.patient] != nil } ?? true)
            }.sorted { ($1.raisedAt, $0.id) < ($0.raisedAt, $1.id) }.prefix(q.limit))
        }
    }

    public func alert(id: String) throws -> Alert? { state.withLock { $0.alerts[id] } }

    public func current(careTeam: String, patient: String) throws -> [Alert] {
        state.withLock { s in
            s.alerts.values.filter {
                $0.careTeam == careTeam && $0.patient == patient
                    && ($0.state != .resolved || ($0.resolvedBy != nil && $0.rearmedAt == nil))
            }.sorted { ($0.raisedAt, $0.id) < ($1.raisedAt, $1.id) }
        }
    }

    public func apply(_ plan: AlertPlan) throws -> [AlertEvent] {
        state.withLock { s in
            var events: [AlertEvent] = []
            for id in plan.resolve where s.alerts[id].map({ $0.state != .resolved }) ?? false {
                s.alerts[id]!.state = .resolved; s.alerts[id]!.resolvedAt = plan.now
                events.append(AlertEvent(.resolved, s.alerts[id]!, at: plan.now))
            }
            for id in plan.rearm where s.alerts[id] != nil && s.alerts[id]!.rearmedAt == nil { s.alerts[id]!.rearmedAt = plan.now }
            for a in plan.raise where !(sync?.wasErased(a.patient) ?? false) && !s.alerts.values.contains(where: {
                $0.state != .resolved && $0.careTeam == a.careTeam && $0.patient == a.patient && $0.key == a.key
            }) {
                s.alerts[a.id] = a
                events.append(AlertEvent(.raised, a, at: plan.now))
            }
            sync?.recordAlertEvents(events)
            return events
        }
    }

    public func acknowledge(id: String, by token: String, at: Date) throws -> Alert? {
        try state.withLock { s in
            guard let alert = s.alerts[id] else { return nil }
            guard alert.state != .resolved else { throw AlertStoreError.alreadyResolved }
            if alert.state == .open {
                s.alerts[id]!.state = .acknowledged; s.alerts[id]!.acknowledgedAt = at; s.alerts[id]!.acknowledgedBy = token
            }
            return s.alerts[id]
        }
    }

    public func resolve(id: String, by token: String, at: Date) throws -> Alert? {
        try state.withLock { s in
            guard let alert = s.alerts[id] else { return nil }
            guard alert.state != .resolved else { throw AlertStoreError.alreadyResolved }
            s.alerts[id]!.state = .resolved; s.alerts[id]!.resolvedAt = at; s.alerts[id]!.resolvedBy = token
            sync?.recordAlertEvents([AlertEvent(.resolved, alert, at: at)])
            return s.alerts[id]
        }
    }
}
