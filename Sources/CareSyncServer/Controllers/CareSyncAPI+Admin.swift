import CareSyncHTTP
import Foundation
import CareSyncCore

extension CareSyncAPI {
    /// Authenticates an admin, runs `body`, and commits an audit record of the action before the answer leaves.
    func adminScoped(_ request: Request, _ context: APIContext, action: String, patient: String? = nil,
                     _ body: @escaping @Sendable (Principal) async throws -> Response) async throws -> Response {
        let principal = try await authenticate(request, context)
        let scope = AuditScope(principal: principal, patient: patient, action: action)
        let reply: Response
        do {
            try authenticator.requireAdmin(principal)
            reply = try await body(principal)
        } catch {
            try? await audit.commit(scope.record(count: 0, status: (error as? HTTPError)?.status.code ?? 500, time: clock()))
            throw error
        }
        // The action is already committed; if its record cannot be, the admin is told 503 and sees no result.
        try await audit.commit(scope.record(count: 1, status: reply.status.code, time: clock()))
        return reply
    }

    /// POST /v1/patients `{"id","timeZone"}` → 201.
    func createPatient(_ request: Request, _ context: APIContext) async throws -> Response {
        let body = try? jsonBody(request)
        return try await adminScoped(request, context, action: "admin.patient.create",
                                   patient: PathID.auditPatient(body?["id"]?.stringValue)) { _ in
            let o = try self.jsonBody(request)
            guard let id = o["id"]?.stringValue else { throw HTTPError.invalidParameter("id", "a patient id string is required") }
            let zone = o["timeZone"]?.stringValue
            if let given = o["timeZone"], given != .null, zone == nil {
                throw HTTPError.invalidParameter("timeZone", "must be an IANA time zone name string")
            }
            let admin = self.admin, now = self.clock()
            let record = try await self.blocking { try admin.createPatient(id: id, timeZone: zone, now: now) }
            return Response.json(Self.encode(record), status: .created)
        }
    }

    /// GET /v1/patients: every patient (admin); the patients in reach for other roles.
    func listPatients(_ request: Request, _ context: APIContext) async throws -> Response {
        let principal = try await authenticate(request, context)
        guard principal.role == .admin else { return try await listPatientsInReach(principal) }
        return try await adminScoped(request, context.authenticated(as: principal), action: "admin.patient.list") { _ in
            let access = self.access
            let list = try await self.blocking { try access.patients() }
            return Response.json(["patients": .array(list.map(Self.encode))])
        }
    }

    /// GET /v1/patients/{patientId}: one patient (admin: any; other roles: one in reach, else 404).
    func getPatient(_ request: Request, _ context: APIContext) async throws -> Response {
        let principal = try await authenticate(request, context)
        guard principal.role == .admin else { return try await readPatientInReach(request, context.authenticated(as: principal)) }
        let given = PathID.auditPatient(context.parameters["patientId"])
        return try await adminScoped(request, context.authenticated(as: principal), action: "admin.patient.read", patient: given) { _ in
            let id = try context.parameter("patientId")
            let access = self.access
            guard let p = try await self.blocking({ try access.patient(id: id) }) else { throw HTTPError.notFound("No such patient.") }
            return Response.json(Self.encode(p))
        }
    }

    /// POST /v1/care-teams `{"name"}` → 201.
    func createCareTeam(_ request: Request, _ context: APIContext) async throws -> Response {
        try await adminScoped(request, context, action: "admin.careTeam.create") { _ in
            let o = try self.jsonBody(request)
            guard let name = o["name"]?.stringValue else { throw HTTPError.invalidParameter("name", "a care team name string is required") }
            let admin = self.admin, now = self.clock()
            try await self.blocking { try admin.createCareTeam(name: name, now: now) }
            return Response.json(["name": .string(name), "patients": []], status: .created)
        }
    }

    /// GET /v1/care-teams: every team with its patients.
    func listCareTeams(_ request: Request, _ context: APIContext) async throws -> Response {
        try await adminScoped(request, context, action: "admin.careTeam.list") { _ in
            let access = self.access
            let teams = try await self.blocking { try access.careTeams() }
            return Response.json(["careTeams": .array(teams.map { ["name": .string($0.name), "patients": .array($0.patients.map(JSONValue.string))] })])
        }
    }

    /// POST /v1/care-teams/{name}/patients `{"patientId"}`.
    func addCareTeamPatient(_ request: Request, _ context: APIContext) async throws -> Response {
        let patient = (try? jsonBody(request))?["patientId"]?.stringValue
        return try await adminScoped(request, context, action: "admin.careTeam.addPatient", patient: PathID.auditPatient(patient)) { _ in
            let team = try context.parameter("name")
            guard let patient else { throw HTTPError.invalidParameter("patientId", "a patient id string is required") }
            let admin = self.admin
            try await self.blocking { try admin.addPatient(patient, toCareTeam: team) }
            let access = self.access
            let teams = try await self.blocking { try access.careTeams() }
            let members = teams.first { $0.name == team }?.patients ?? []
            return Response.json(["name": .string(team), "patients": .array(members.map(JSONValue.string))])
        }
    }

    /// POST /v1/tokens → 201 with the secret, shown this once.
    func createToken(_ request: Request, _ context: APIContext) async throws -> Response {
        try await adminScoped(request, context, action: "admin.token.create") { _ in
            let o = try self.jsonBody(request)
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
            let admin = self.admin, now = self.clock()
            let (record, secret) = try await self.blocking { try admin.createToken(spec, now: now) }
            guard case .object(var body) = Self.encode(record) else { throw HTTPError.internal }
            body["secret"] = .string(secret)
            return Response.json(.object(body), status: .created)
        }
    }

    /// GET /v1/tokens: every token, without secrets or hashes.
    func listTokens(_ request: Request, _ context: APIContext) async throws -> Response {
        try await adminScoped(request, context, action: "admin.token.list") { _ in
            let access = self.access
            let list = try await self.blocking { try access.tokens() }
            return Response.json(["tokens": .array(list.map(Self.encode))])
        }
    }

    /// DELETE /v1/tokens/{tokenId}: revokes.
    func revokeToken(_ request: Request, _ context: APIContext) async throws -> Response {
        try await adminScoped(request, context, action: "admin.token.revoke") { _ in
            let id = try context.parameter("tokenId")
            let admin = self.admin, now = self.clock()
            try await self.blocking { try admin.revokeToken(id: id, now: now) }
            self.tokenRevoked(id)
            return Response.json(["id": .string(id), "revoked": true])
        }
    }

    /// GET /v1/audit?patient=&token=&before=&limit=: audit records, newest first.
    func listAudit(_ request: Request, _ context: APIContext) async throws -> Response {
        try await adminScoped(request, context, action: "admin.audit.read") { _ in
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
            let records = try await self.blocking { try access.audit(q) }
            return Response.json(["records": .array(records.map { r in
                ["id": .number(Double(r.id)), "time": .string(RFC3339.format(r.time)), "tokenId": .string(r.tokenID),
                 "role": .string(r.role.rawValue), "patient": .optional(r.patient), "action": .string(r.action),
                 "count": .number(Double(r.count)), "status": .number(Double(r.status))]
            })])
        }
    }

    static func encode(_ p: PatientRecord) -> JSONValue {
        ["id": .string(p.id), "timeZone": .string(p.timeZone), "createdAt": .string(RFC3339.format(p.createdAt))]
    }

    static func encode(_ t: TokenRecord) -> JSONValue {
        [
            "id": .string(t.id), "role": .string(t.role.rawValue), "patient": .optional(t.patient),
            "careTeams": .array(t.careTeams.map(JSONValue.string)), "source": .string(t.source),
            "readTypes": t.readTypes.map { .array($0.map(\.rawValue).sorted().map(JSONValue.string)) } ?? .null,
            "writeTypes": t.writeTypes.map { .array($0.map(\.rawValue).sorted().map(JSONValue.string)) } ?? .null,
            "createdAt": .string(RFC3339.format(t.createdAt)),
            "expiresAt": .optional(t.expiresAt.map(RFC3339.format)), "revokedAt": .optional(t.revokedAt.map(RFC3339.format)),
        ]
    }
}
