import Foundation

/// Evaluates care teams' alert rules for patients from the figures the status and monitoring readers compute, and applies
/// the outcome to the alert store (docs/alerts.md). A patient is evaluated under the rules of every care team it belongs
/// to; a patient in no team raises nothing.
public struct AlertEvaluator: Sendable {
    /// Patients, teams, tokens and the audit log.
    public let access: any AccessStore
    /// Alerts and rules.
    public let alerts: any AlertStore
    /// Status figures (feed, statistics, audit).
    let status: PatientStatusReader
    /// Episodes and their periods.
    let monitoring: MonitoringReader

    /// An evaluator over the stores of one database.
    public init(store: any SyncStore, access: any AccessStore, monitoring: any MonitoringStore, alerts: any AlertStore) {
        self.access = access; self.alerts = alerts
        status = PatientStatusReader(store: store, access: access)
        self.monitoring = MonitoringReader(store: store, access: access, monitoring: monitoring)
    }

    /// Evaluates every patient of every care team at `now`; returns the events that happened.
    public func evaluateAll(now: Date) throws -> [AlertEvent] {
        try evaluate(patients: Set(try access.careTeams().flatMap(\.patients)).sorted(), now: now)
    }

    /// Evaluates `patients` in order at `now`, reading the care teams and tokens once; returns the events that happened.
    public func evaluate(patients ids: [String], now: Date) throws -> [AlertEvent] {
        var teamsOf: [String: [CareTeamRecord]] = [:]
        for team in try access.careTeams() { for patient in team.patients { teamsOf[patient, default: []].append(team) } }
        let devices = TokenRecord.devicesByPatient(try access.tokens())
        return try ids.flatMap { try evaluate(patient: $0, teams: teamsOf[$0] ?? [], devices: devices[$0] ?? [], now: now) }
    }

    /// Evaluates one patient under each of its teams' rules at `now`; returns the events that happened.
    public func evaluate(patient id: String, now: Date) throws -> [AlertEvent] { try evaluate(patients: [id], now: now) }

    /// Evaluates one patient under the rules of `teams` (those it belongs to), with its device tokens.
    func evaluate(patient id: String, teams: [CareTeamRecord], devices: [TokenRecord], now: Date) throws -> [AlertEvent] {
        guard !teams.isEmpty, let patient = try access.patient(id: id) else { return [] }
        var events: [AlertEvent] = []
        var figures: [Int: AlertFigures] = [:]
        for team in teams {
            let rules = try alerts.rules(careTeam: team.name) ?? .defaults
            let hours = rules.deviceSilentHours
            if figures[hours] == nil { figures[hours] = try self.figures(of: patient, devices: devices, silentHours: hours, now: now) }
            let holding = AlertConditions.holding(figures[hours]!, rules: rules)
            let plan = AlertPlan.reconcile(careTeam: team.name, patient: id, current: try alerts.current(careTeam: team.name, patient: id),
                                           holding: holding, now: now)
            if !plan.isEmpty { events += try alerts.apply(plan) }
        }
        return events
    }

    /// The figures of `patient` at `now`, with a silence threshold of `silentHours`.
    func figures(of patient: PatientRecord, devices: [TokenRecord], silentHours: Int, now: Date) throws -> AlertFigures {
        let settings = StatusSettings(silentAfter: TimeInterval(silentHours) * 3600)
        let current = try status.status(of: patient, devices: devices, readable: nil, settings: settings, now: now)
        let open = try monitoring.episodes(of: patient, devices: devices, readable: nil, now: now).last { $0.episode.isOpen }
        let zone = TimeZone(identifier: current.timeZone) ?? TimeZone(identifier: "UTC")!
        let weeks = try status.weekTotals(patient: patient.id, type: .stepCount, zone: zone, today: current.today.adding(days: -7))
        return AlertFigures(status: current, openEpisode: open.map { ($0.episode.id, $0.periods) }, lastFullWeeks: weeks)
    }
}
