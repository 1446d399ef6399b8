import CareSyncHTTP
import Foundation
import CareSyncCore

/// Access administration: patients, care teams, tokens and the audit log (admins), the patients in reach (other
/// roles) and the caller's own token.
struct AdminController: Sendable {
    let gate: AccessGate
    let admin: AccessAdmin
    let access: any AccessStore
    let calls: StoreCalls
    let clock: ServerClock
    /// Interrupts the parked long polls and open event streams of a token revoked here, and ends this instance's reach
    /// to a patient taken off a care team here.
    let notifier: ChangeNotifier

    /// Its endpoints.
    var routes: [APIRoute] {
        [
            APIRoute(.post, "/v1/patients", createPatient),
            APIRoute(.get, "/v1/patients", listPatients),
            APIRoute(.get, "/v1/patients/{patientId}", getPatient),
            APIRoute(.patch, "/v1/patients/{patientId}", updatePatient),
            APIRoute(.post, "/v1/care-teams", createCareTeam),
            APIRoute(.get, "/v1/care-teams", listCareTeams),
            APIRoute(.post, "/v1/care-teams/{name}/patients", addCareTeamPatient),
            APIRoute(.delete, "/v1/care-teams/{name}/patients/{patientId}", removeCareTeamPatient),
            APIRoute(.post, "/v1/tokens", createToken),
            APIRoute(.get, "/v1/tokens", listTokens),
            APIRoute(.delete, "/v1/tokens/{tokenId}", revokeToken),
            APIRoute(.get, "/v1/audit", listAudit),
        ]
    }

    /// POST /v1/patients `{"id","timeZone","displayName"}` → 201.
    func createPatient(_ request: Request, _ context: APIContext) async throws -> Response {
        let body = try? request.jsonBody()
        return try await gate.adminScoped(request, context, action: "admin.patient.create",
                                   patient: PathID.auditPatient(body?["id"]?.stringValue)) { _ in
            let o = try request.jsonBody()
            guard let id = o["id"]?.stringValue else { throw HTTPError.invalidParameter("id", "a patient id string is required") }
            let zone = try Self.optionalString(o, "timeZone", "must be an IANA time zone name string")
            let name = try Self.optionalString(o, "displayName", "must be a string")
            let admin = self.admin, now = self.clock.now()
            let record = try await self.calls.blocking { try admin.createPatient(id: id, timeZone: zone, displayName: name ?? "", now: now) }
            return Response.json(AccessWire.encode(record), status: .created)
        }
    }

    /// GET /v1/patients: every patient (admin); the patients in reach for other roles.
    func listPatients(_ request: Request, _ context: APIContext) async throws -> Response {
        let principal = try await gate.authenticate(request, context)
        guard principal.role == .admin else { return try await listPatientsInReach(principal) }
        return try await gate.adminScoped(request, context.authenticated(as: principal), action: "admin.patient.list") { _ in
            let access = self.access
            let list = try await self.calls.blocking { try access.patients() }
            return Response.json(["patients": .array(list.map(AccessWire.encode))])
        }
    }

    /// GET /v1/patients/{patientId}: one patient (admin: any; other roles: one in reach, else 404).
    func getPatient(_ request: Request, _ context: APIContext) async throws -> Response {
        let principal = try await gate.authenticate(request, context)
        guard principal.role == .admin else { return try await readPatientInReach(request, context.authenticated(as: principal)) }
        let given = PathID.auditPatient(context.parameters["patientId"])
        return try await gate.adminScoped(request, context.authenticated(as: principal), action: "admin.patient.read", patient: given) { _ in
            let id = try context.parameter("patientId")
            let access = self.access
            guard let p = try await self.calls.blocking({ try access.patient(id: id) }) else { throw HTTPError.notFound("No such patient.") }
            return Response.json(AccessWire.encode(p))
        }
    }

    /// POST /v1/care-teams `{"name"}` → 201.
    func createCareTeam(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.adminScoped(request, context, action: "admin.careTeam.create") { _ in
            let o = try request.jsonBody()
            guard let name = o["name"]?.stringValue else { throw HTTPError.invalidParameter("name", "a care team name string is required") }
            let admin = self.admin, now = self.clock.now()
            try await self.calls.blocking { try admin.createCareTeam(name: name, now: now) }
            return Response.json(["name": .string(name), "patients": []], status: .created)
        }
    }

    /// GET /v1/care-teams: every team with its patients.
    func listCareTeams(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.adminScoped(request, context, action: "admin.careTeam.list") { _ in
            let access = self.access
            let teams = try await self.calls.blocking { try access.careTeams() }
            return Response.json(["careTeams": .array(teams.map { ["name": .string($0.name), "patients": .array($0.patients.map(JSONValue.string))] })])
        }
    }

    /// POST /v1/care-teams/{name}/patients `{"patientId"}`.
    func addCareTeamPatient(_ request: Request, _ context: APIContext) async throws -> Response {
        let patient = (try? request.jsonBody())?["patientId"]?.stringValue
        return try await gate.adminScoped(request, context, action: "admin.careTeam.addPatient", patient: PathID.auditPatient(patient)) { _ in
            let team = try context.parameter("name")
            guard let patient else { throw HTTPError.invalidParameter("patientId", "a patient id string is required") }
            let admin = self.admin
            try await self.calls.blocking { try admin.addPatient(patient, toCareTeam: team) }
            return try await self.careTeam(team)
        }
    }

    /// DELETE /v1/care-teams/{name}/patients/{patientId} → 200 and the team as it is now; 404 for no such team or a patient
    /// not on it. The team's therapists lose the patient at once, on every instance: their parked long polls and
    /// streams on the patient end (404), and the patient leaves the team's lists.
    func removeCareTeamPatient(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.adminScoped(request, context, action: "admin.careTeam.removePatient",
                                   patient: PathID.auditPatient(context.parameters["patientId"])) { _ in
            let team = try context.parameter("name"), patient = try context.parameter("patientId")
            let admin = self.admin, now = self.clock.now()
            try await self.calls.blocking { try admin.removePatient(patient, fromCareTeam: team, now: now) }
            // What this instance proved goes at once (other instances hear it from the store, or look on SQLite).
            self.notifier.reachEnded(patient)
            return try await self.careTeam(team)
        }
    }

    /// The answer naming a team and its patients (by id) as they are now: one read of that team's members.
    private func careTeam(_ team: String) async throws -> Response {
        let access = self.access
        let members = try await calls.blocking { try access.careTeamMembers(team)?.keys.sorted() ?? [] }
        return Response.json(["name": .string(team), "patients": .array(members.map(JSONValue.string))])
    }

    /// POST /v1/tokens → 201 with the secret, shown this once.
    func createToken(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.adminScoped(request, context, action: "admin.token.create") { _ in
            let o = try request.jsonBody()
            var problems: [ValidationProblem] = []
            func strings(_ field: String) -> [String]? {
                guard let v = o[field], v != .null else { return nil }
                guard let list = v.arrayValue?.compactMap(\.stringValue), list.count == v.arrayValue?.count else {
                    problems.append(ValidationProblem(index: nil, field: field, message: "must be an array of strings")); return nil
                }
                return list
            }
            if let given = o["expiresInDays"], given != .null, given.numberValue == nil {
                problems.append(ValidationProblem(index: nil, field: "expiresInDays", message: "must be a number of days"))
            }
            for field in ["patient", "source"] where o[field] != nil && o[field] != .null && o[field]?.stringValue == nil {
                problems.append(ValidationProblem(index: nil, field: field, message: "must be a string"))
            }
            let role = o["role"]?.stringValue.flatMap(Role.init(rawValue:))
            if role == nil { problems.append(ValidationProblem(index: nil, field: "role", message: "must be device, therapist or admin")) }
            let spec = TokenSpec(role: role ?? .device, patient: o["patient"]?.stringValue, careTeams: strings("careTeams") ?? [],
                                 source: o["source"]?.stringValue, readTypes: strings("readTypes"), writeTypes: strings("writeTypes"),
                                 expiresInDays: o["expiresInDays"]?.numberValue)
            guard problems.isEmpty else { throw HTTPError.validation(problems) }
            let admin = self.admin, now = self.clock.now()
            let (record, secret) = try await self.calls.blocking { try admin.createToken(spec, now: now) }
            guard case .object(var body) = AccessWire.encode(record) else { throw HTTPError.internal }
            body["secret"] = .string(secret)
            return Response.json(.object(body), status: .created)
        }
    }

    /// GET /v1/tokens: every token, without secrets or hashes.
    func listTokens(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.adminScoped(request, context, action: "admin.token.list") { _ in
            let access = self.access
            let list = try await self.calls.blocking { try access.tokens() }
            return Response.json(["tokens": .array(list.map(AccessWire.encode))])
        }
    }

    /// DELETE /v1/tokens/{tokenId}: revokes.
    func revokeToken(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.adminScoped(request, context, action: "admin.token.revoke") { _ in
            let id = try context.parameter("tokenId")
            let admin = self.admin, now = self.clock.now()
            try await self.calls.blocking { try admin.revokeToken(id: id, now: now) }
            // Ends the token's parked long polls and open event streams on this instance at once.
            self.notifier.interrupt(id)
            return Response.json(["id": .string(id), "revoked": true])
        }
    }

    /// GET /v1/audit?patient=&token=&before=&limit=: audit records, newest first.
    func listAudit(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.adminScoped(request, context, action: "admin.audit.read") { _ in
            var query = AuditQuery(patient: request.query("patient"), tokenID: request.query("token"))
            if let l = request.query("limit") {
                guard let n = Int(l), (1...1000).contains(n) else { throw HTTPError.invalidParameter("limit", "must be an integer from 1 to 1000") }
                query.limit = n
            }
            if let b = request.query("before") {
                guard let n = Int64(b) else { throw HTTPError.invalidParameter("before", "must be an audit record id") }
                query.before = n
            }
            let access = self.access, q = query
            let records = try await self.calls.blocking { try access.audit(q) }
            return Response.json(["records": .array(records.map { r in
                ["id": .number(Double(r.id)), "time": .string(RFC3339.format(r.time)), "tokenId": .string(r.tokenID),
                 "role": .string(r.role.rawValue), "patient": .optional(r.patient), "action": .string(r.action),
                 "count": .number(Double(r.count)), "status": .number(Double(r.status))]
            })])
        }
    }
}
