import CareSyncHTTP
import CareSyncCore
import Foundation

/// Patient status: each device's last sync, days with data and gaps, weekly totals, the latest walk test; and the
/// same for every patient of a care team, sorted by attention (docs/status.md).
struct StatusController: Sendable {
    let gate: AccessGate
    let store: any SyncStore
    let access: any AccessStore
    /// The alerts shown in each status (none when the server has no alert store).
    let alerts: (any AlertStore)?
    /// The display names of enrolled devices (none when the server has no enrolment store).
    let enrolments: (any EnrolmentStore)?
    let calls: StoreCalls
    let clock: ServerClock

    /// Its endpoints.
    var routes: [APIRoute] {
        [
            APIRoute(.get, "/v1/patients/{patientId}/status", getPatientStatus),
            APIRoute(.get, "/v1/care-teams/{name}/status", getCareTeamStatus),
        ]
    }

    /// GET /v1/patients/{patientId}/status.
    func getPatientStatus(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScoped(request, context, action: "status.read") { principal, patient in
            let settings = try Self.settings(request, allowFilter: false).settings
            let reader = PatientStatusReader(store: self.store, access: self.access), access = self.access, now = self.clock.now()
            let alerts = self.alerts, enrolments = self.enrolments
            let status = try await self.calls.blocking { () throws -> PatientStatus? in
                guard let record = try access.patient(id: patient) else { return nil }
                return try reader.status(of: record, devices: Self.devices(of: patient, in: try access.tokens()),
                                         readable: principal.readable(nil), settings: settings, now: now)
                    .withAlerts(try Self.unresolved(alerts, patient: patient, teams: principal.role == .admin ? nil : principal.token.careTeams))
                    .withDeviceNames(try Self.deviceNames(enrolments, patients: [patient])[patient] ?? [:])
            }
            guard let status else { throw HTTPError.notFound("No such patient.") }
            return (Response.json(StatusWire.encode(status)), 1)
        }
    }

    /// GET /v1/care-teams/{name}/status: every patient of a team the caller belongs to, by attention (highest first).
    func getCareTeamStatus(_ request: Request, _ context: APIContext) async throws -> Response {
        let principal = try await gate.authenticate(request, context)
        let refused = AuditScope(principal: principal, patient: nil, action: "careTeam.status.read")
        do {
            let name = try context.parameter("name")
            guard principal.role == .therapist, principal.token.careTeams.contains(name) else { throw HTTPError.notFound("No such care team.") }
            let (settings, only) = try Self.settings(request, allowFilter: true)
            let reader = PatientStatusReader(store: store, access: access), access = self.access, now = clock.now(), alerts = self.alerts
            let enrolments = self.enrolments
            let statuses = try await calls.blocking { () throws -> [PatientStatus]? in
                guard let team = try access.careTeams().first(where: { $0.name == name }) else { return nil }
                let devices = TokenRecord.devicesByPatient(try access.tokens()), members = Set(team.patients)
                let open = try Self.unresolved(alerts, careTeam: name, patients: members.count)
                let patients = try access.patients().filter { members.contains($0.id) }
                let names = try Self.deviceNames(enrolments, patients: patients.map(\.id))
                return try reader.statuses(of: patients, devices: devices, readable: principal.readable(nil), settings: settings, now: now)
                    .map { $0.withAlerts(open[$0.patient] ?? []).withDeviceNames(names[$0.patient] ?? [:]) }
            }
            guard let statuses else { throw HTTPError.notFound("No such care team.") }
            let listed = Self.sortedByAttention(statuses.filter { only?.admits($0) ?? true })
            // Every listed patient's record commits before the answer leaves, in one transaction.
            let records = listed.map { AuditScope(principal: principal, patient: $0.patient, action: "status.read").record(count: 1, status: 200, time: now) }
            do { try await access.commitAudit(records) } catch {
                throw HTTPError.unavailable("The access could not be recorded in the audit log, so it was not answered; retry later.")
            }
            return Response.json(["careTeam": .string(name), "patients": .array(listed.map(StatusWire.encode))])
        } catch {
            try? await gate.audit.commit(refused.record(count: 0, status: (error as? HTTPError)?.status.code ?? 500, time: clock.now()))
            throw error
        }
    }

    /// The patient's unresolved alerts under `teams` (nil: every team), newest first.
    static func unresolved(_ alerts: (any AlertStore)?, patient: String, teams: [String]?) throws -> [Alert] {
        guard let alerts else { return [] }
        return try alerts.alerts(AlertQuery(patient: patient, limit: 200))
            .filter { $0.state != .resolved && (teams?.contains($0.careTeam) ?? true) }
    }

    /// The unresolved alerts of the team by patient, newest first (as `AlertQuery` lists them): one read per state for
    /// the whole team, at most 200 per patient on average.
    static func unresolved(_ alerts: (any AlertStore)?, careTeam: String, patients: Int) throws -> [String: [Alert]] {
        guard let alerts else { return [:] }
        let limit = 200 * max(1, patients)
        var unresolved: [Alert] = []
        for state in [AlertState.open, .acknowledged] { unresolved += try alerts.alerts(AlertQuery(careTeam: careTeam, state: state, limit: limit, membersOnly: true)) }
        unresolved.sort { (a: Alert, b: Alert) in (a.raisedAt, b.id) > (b.raisedAt, a.id) }
        return Dictionary(grouping: unresolved, by: \.patient)
    }

    /// The display name of each enrolled source of each patient, in one read.
    static func deviceNames(_ enrolments: (any EnrolmentStore)?, patients: [String]) throws -> [String: [String: String]] {
        guard let enrolments else { return [:] }
        return try enrolments.deviceSources(patients: patients).mapValues { sources in
            Dictionary(sources.map { ($0.source, $0.displayName) }, uniquingKeysWith: { _, later in later })
        }
    }

    /// Highest attention score first, then patient id.
    static func sortedByAttention(_ list: [PatientStatus]) -> [PatientStatus] {
        list.sorted { ($0.attention.score, $1.patient) > ($1.attention.score, $0.patient) }
    }

    /// The patient's device tokens, revoked and expired ones included (what they wrote still counts).
    static func devices(of patient: String, in tokens: [TokenRecord]) -> [TokenRecord] {
        tokens.filter { $0.role == .device && $0.patient == patient }
    }


    /// Reads `silentHours`, `weeks` and (for a team) `only`; every malformed one is a problem in one 422.
    static func settings(_ request: Request, allowFilter: Bool) throws -> (settings: StatusSettings, only: StatusFilter?) {
        var problems: [ValidationProblem] = []
        var settings = StatusSettings()
        func integer(_ name: String, _ range: ClosedRange<Int>) -> Int? {
            guard let text = request.query(name) else { return nil }
            guard let n = Int(text), range.contains(n) else {
                problems.append(ValidationProblem(index: nil, field: name, message: "must be an integer in \(range.lowerBound)…\(range.upperBound)"))
                return nil
            }
            return n
        }
        if let h = integer("silentHours", 1...StatusSettings.maximumSilentHours) { settings.silentAfter = Double(h) * 3600 }
        if let w = integer("weeks", 1...StatusSettings.maximumGapWeeks) { settings.gapWeeks = w }
        var only: StatusFilter?
        if allowFilter, let text = request.query("only") {
            only = StatusFilter(rawValue: text)
            if only == nil { problems.append(ValidationProblem(index: nil, field: "only", message: "must be silent, gaps or attention")) }
        }
        guard problems.isEmpty else { throw HTTPError.validation(problems) }
        return (settings, only)
    }
}

/// Which patients a care team's status lists: those with a silent device, with a gap in the window, or with any attention.
enum StatusFilter: String, Sendable {
    case silent, gaps, attention

    /// Whether `status` passes the filter.
    func admits(_ status: PatientStatus) -> Bool {
        switch self {
        case .silent: status.attention.silentSources > 0
        case .gaps: !status.gaps.isEmpty
        case .attention: status.attention.score > 0
        }
    }
}
