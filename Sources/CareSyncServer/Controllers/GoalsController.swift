import CareSyncHTTP
import CareSyncCore
import Foundation

/// Goals per patient and kind, and adherence to them from statistics in the patient's zone (docs/monitoring.md, "Goals").
struct GoalsController: Sendable {
    let gate: AccessGate
    let store: any SyncStore
    let access: any AccessStore
    /// Nil when the server was built without one: the routes exist and answer 503.
    let monitoring: (any MonitoringStore)?
    let calls: StoreCalls
    let clock: ServerClock

    /// Its endpoints.
    var routes: [APIRoute] {
        [
            APIRoute(.put, "/v1/patients/{patientId}/goals/{kind}", setGoal),
            APIRoute(.get, "/v1/patients/{patientId}/goals", getGoals),
        ]
    }

    /// The most days adherence may be asked over.
    static let maximumDays = 90

    /// PUT /v1/patients/{patientId}/goals/{kind}: sets the goal's target (a therapist only).
    func setGoal(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScoped(request, context, action: "goals.set") { principal, patient in
            guard let kind = context.parameters["kind"].flatMap(GoalKind.init(rawValue:)) else {
                throw HTTPError.notFound("No such goal kind: \(GoalKind.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            try MonitoringController.requireTherapist(principal)
            guard let monitoring = self.monitoring else { throw HTTPError.unavailable("Goals are not available on this server.") }
            let body = try request.jsonBody()
            guard let target = body["target"]?.numberValue, target > 0, target <= kind.maximumTarget else {
                throw HTTPError.invalidParameter("target", "must be a number above 0 and at most \(Int(kind.maximumTarget))")
            }
            let goal = PatientGoal(patient: patient, kind: kind, target: target, setBy: principal.tokenID, setAt: self.clock.now())
            try await self.calls.blocking { try monitoring.setGoal(goal) }
            return (Response.json(GoalsWire.encode(goal)), 1)
        }
    }

    /// GET /v1/patients/{patientId}/goals?days=N: every goal with its adherence over the N full days ending yesterday.
    func getGoals(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScoped(request, context, action: "goals.read") { principal, patient in
            guard let monitoring = self.monitoring else { throw HTTPError.unavailable("Goals are not available on this server.") }
            var days = 7
            if let text = request.query("days") {
                guard let n = Int(text), (1...Self.maximumDays).contains(n) else {
                    throw HTTPError.invalidParameter("days", "must be an integer in 1…\(Self.maximumDays)")
                }
                days = n
            }
            let reader = PatientStatusReader(store: self.store, access: self.access), access = self.access, now = self.clock.now(), span = days
            let list = try await self.calls.blocking { () throws -> [GoalAdherence]? in
                guard let record = try access.patient(id: patient) else { return nil }
                return try monitoring.goals(patient: patient).map {
                    try reader.adherence(to: $0, of: record, readable: principal.readable(nil), days: span, now: now)
                }
            }
            guard let list else { throw HTTPError.notFound("No such patient.") }
            return (Response.json(["patient": .string(patient), "goals": .array(list.map(GoalsWire.encode))]), list.count)
        }
    }
}

/// Goals and adherence as JSON.
enum GoalsWire {
    /// A goal.
    static func encode(_ g: PatientGoal) -> JSONValue {
        ["kind": .string(g.kind.rawValue), "type": .string(g.kind.type.rawValue), "target": .number(g.target), "setAt": .string(RFC3339.format(g.setAt))]
    }

    /// A goal with its adherence.
    static func encode(_ a: GoalAdherence) -> JSONValue {
        guard case .object(var o) = encode(a.goal) else { return .null }
        o["adherence"] = ["first": .string(a.first.description), "last": .string(a.last.description), "days": .integer(Int64(a.days)),
                          "daysMet": a.daysMet.map { .integer(Int64($0)) } ?? .null, "ratio": .optional(a.ratio),
                          "latest": .optional(a.latest), "latestMet": .bool(a.latestMet)]
        return .object(o)
    }
}
