import CareSyncHTTP
import CareSyncCore
import Foundation

/// Alerts: each care team's rules, the alerts they raised listed per team and per patient, acknowledged and resolved by
/// a therapist (docs/alerts.md). Evaluation runs in `AlertEvaluationJob`, not in a request.
struct AlertsController: Sendable {
    let gate: AccessGate
    let access: any AccessStore
    /// Nil when the server was built without one: the routes exist and answer 503.
    let alerts: (any AlertStore)?
    let calls: StoreCalls
    let clock: ServerClock

    /// Its endpoints.
    var routes: [APIRoute] {
        [
            APIRoute(.get, "/v1/care-teams/{name}/alert-rules", getRules),
            APIRoute(.put, "/v1/care-teams/{name}/alert-rules", setRules),
            APIRoute(.get, "/v1/care-teams/{name}/alerts", getTeamAlerts),
            APIRoute(.get, "/v1/patients/{patientId}/alerts", getPatientAlerts),
            APIRoute(.post, "/v1/patients/{patientId}/alerts/{alertId}/acknowledge", acknowledge),
            APIRoute(.post, "/v1/patients/{patientId}/alerts/{alertId}/resolve", resolve),
        ]
    }

    /// The alert store, or 503.
    func requireStore() throws -> any AlertStore {
        guard let alerts else { throw HTTPError.unavailable("Alerts are not available on this server.") }
        return alerts
    }

    /// Runs `body` for a care team the caller may act on (a therapist of the team, or an admin when `admin` allows; 404
    /// otherwise, as for a team that does not exist), auditing the action; `body` returns the answer and the patients
    /// whose data it shows (each gets its own `perPatient` record, committed before the answer leaves).
    func teamScoped(_ request: Request, _ context: APIContext, action: String, perPatient: String?, admin: Bool,
                    _ body: @escaping @Sendable (Principal, String) async throws -> (Response, [String])) async throws -> Response {
        let principal = try await gate.authenticate(request, context)
        let scope = AuditScope(principal: principal, patient: nil, action: action)
        do {
            let name = try context.parameter("name")
            let member = principal.role == .therapist && principal.token.careTeams.contains(name)
            guard member || (admin && principal.role == .admin) else { throw HTTPError.notFound("No such care team.") }
            let access = self.access
            guard try await calls.blocking({ try access.careTeams().contains { $0.name == name } }) else {
                throw HTTPError.notFound("No such care team.")
            }
            let (reply, patients) = try await body(principal, name)
            let now = clock.now()
            var records = [scope.record(count: max(patients.count, 1), status: reply.status.code, time: now)]
            if let perPatient {
                records += patients.map { AuditScope(principal: principal, patient: $0, action: perPatient).record(count: 1, status: 200, time: now) }
            }
            do { try await access.commitAudit(records) } catch {
                throw HTTPError.unavailable("The access could not be recorded in the audit log, so it was not answered; retry later.")
            }
            return reply
        } catch {
            try? await gate.audit.commit(scope.record(count: 0, status: (error as? HTTPError)?.status.code ?? 500, time: clock.now()))
            throw error
        }
    }

    /// GET /v1/care-teams/{name}/alert-rules: the team's rules (the defaults until it sets its own).
    func getRules(_ request: Request, _ context: APIContext) async throws -> Response {
        try await teamScoped(request, context, action: "careTeam.alertRules.read", perPatient: nil, admin: true) { _, team in
            let store = try self.requireStore()
            let rules = try await self.calls.blocking { try store.rules(careTeam: team) }
            return (Response.json(AlertWire.encode(rules ?? .defaults, careTeam: team, isDefault: rules == nil)), [])
        }
    }

    /// PUT /v1/care-teams/{name}/alert-rules: replaces the team's rules (a rule left out takes its default).
    func setRules(_ request: Request, _ context: APIContext) async throws -> Response {
        try await teamScoped(request, context, action: "careTeam.alertRules.set", perPatient: nil, admin: true) { _, team in
            let store = try self.requireStore()
            let rules = try AlertWire.decodeRules(try request.jsonBody())
            try await self.calls.blocking { try store.setRules(rules, careTeam: team) }
            return (Response.json(AlertWire.encode(rules, careTeam: team, isDefault: false)), [])
        }
    }

    /// GET /v1/care-teams/{name}/alerts?state=open|acknowledged|resolved: the team's alerts, newest first (a therapist of the team).
    func getTeamAlerts(_ request: Request, _ context: APIContext) async throws -> Response {
        try await teamScoped(request, context, action: "careTeam.alerts.read", perPatient: "alerts.read", admin: false) { _, team in
            let store = try self.requireStore()
            let query = AlertQuery(careTeam: team, state: try Self.state(request), limit: Self.listLimit, membersOnly: true)
            let list = try await self.calls.blocking { try store.alerts(query) }
            let patients = Array(Set(list.map(\.patient))).sorted()
            return (Response.json(["careTeam": .string(team), "alerts": .array(list.map(AlertWire.encode))]), patients)
        }
    }

    /// The most alerts one list answers.
    static let listLimit = 1_000

    /// The `state` query parameter, or 422.
    static func state(_ request: Request) throws -> AlertState? {
        guard let text = request.query("state") else { return nil }
        guard let state = AlertState(rawValue: text) else { throw HTTPError.invalidParameter("state", "must be open, acknowledged or resolved") }
        return state
    }
}
