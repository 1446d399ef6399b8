import CareSyncHTTP
import CareSyncCore
import Foundation

extension AdminController {
    /// Its endpoints for every role.
    var callerRoutes: [APIRoute] {
        [APIRoute(.get, "/v1/whoami", whoami)]
    }

    /// GET /v1/patients for a therapist (the patients of its care teams) or a device (its one patient).
    func listPatientsInReach(_ principal: Principal) async throws -> Response {
        let scope = AuditScope(principal: principal, patient: nil, action: "patients.list")
        let access = self.access
        let list: [PatientRecord]
        do {
            list = try await calls.blocking { try Self.patientsInReach(of: principal, in: access) }
        } catch {
            try? await gate.audit.commit(scope.record(count: 0, status: (error as? HTTPError)?.status.code ?? 500, time: clock.now()))
            throw error
        }
        try await gate.audit.commit(scope.record(count: list.count, status: 200, time: clock.now()))
        return Response.json(["patients": .array(list.map(AccessWire.encode))])
    }

    /// GET /v1/patients/{patientId} for a therapist or a device: the patient when in reach, else 404 (as every patient path).
    func readPatientInReach(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScoped(request, context, action: "patients.read") { _, patient in
            let access = self.access
            guard let record = try await self.calls.blocking({ try access.patient(id: patient) }) else {
                throw HTTPError.notFound("No such patient.")
            }
            return (Response.json(AccessWire.encode(record)), 1)
        }
    }

    /// GET /v1/whoami: the caller's own token record (no secret), so a client can tell its role, source and reach.
    func whoami(_ request: Request, _ context: APIContext) async throws -> Response {
        let principal = try await gate.authenticate(request, context)
        return Response.json(AccessWire.encode(principal.token))
    }

    /// The patients `principal` reaches, by id.
    static func patientsInReach(of principal: Principal, in access: any AccessStore) throws -> [PatientRecord] {
        switch principal.role {
        case .admin:
            return []
        case .device:
            guard let id = principal.token.patient, let record = try access.patient(id: id) else { return [] }
            return [record]
        case .therapist:
            let teams = Set(principal.token.careTeams)
            let ids = Set(try access.careTeams().filter { teams.contains($0.name) }.flatMap(\.patients))
            return try access.patients().filter { ids.contains($0.id) }
        }
    }
}
