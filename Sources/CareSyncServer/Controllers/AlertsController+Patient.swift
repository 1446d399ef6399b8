import CareSyncHTTP
import CareSyncCore
import Foundation

extension AlertsController {
    /// GET /v1/patients/{patientId}/alerts?state=…: the patient's alerts under the caller's care teams (every team's for an admin).
    func getPatientAlerts(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.patientScoped(request, context, action: "alerts.read") { principal, patient in
            guard principal.role != .device else { throw HTTPError.forbidden("Only a therapist or an admin may read alerts.") }
            let store = try self.requireStore()
            let query = AlertQuery(patient: patient, state: try Self.state(request), limit: Self.listLimit)
            let list = try await self.calls.blocking { try store.alerts(query) }
                .filter { principal.role == .admin || principal.token.careTeams.contains($0.careTeam) }
            return (Response.json(["patient": .string(patient), "alerts": .array(list.map(AlertWire.encode))]), list.count)
        }
    }

    /// POST /v1/patients/{patientId}/alerts/{alertId}/acknowledge: a therapist of the alert's team has seen it.
    func acknowledge(_ request: Request, _ context: APIContext) async throws -> Response {
        try await change(request, context, action: "alerts.acknowledge") { store, id, principal, now in
            try store.acknowledge(id: id, by: principal.tokenID, at: now)
        }
    }

    /// POST /v1/patients/{patientId}/alerts/{alertId}/resolve: a therapist of the alert's team resolves it.
    func resolve(_ request: Request, _ context: APIContext) async throws -> Response {
        try await change(request, context, action: "alerts.resolve") { store, id, principal, now in
            try store.resolve(id: id, by: principal.tokenID, at: now)
        }
    }

    /// Finds the patient's alert under one of the caller's teams (404 otherwise), applies `write`, answers the alert;
    /// 409 for a resolved one.
    func change(_ request: Request, _ context: APIContext, action: String,
                _ write: @escaping @Sendable (any AlertStore, String, Principal, Date) throws -> Alert?) async throws -> Response {
        try await gate.patientScoped(request, context, action: action) { principal, patient in
            try MonitoringController.requireTherapist(principal)
            let store = try self.requireStore()
            let id = try context.parameter("alertId"), now = self.clock.now()
            let changed = try await self.calls.blocking { () throws -> Alert? in
                guard let alert = try store.alert(id: id), alert.patient == patient, principal.token.careTeams.contains(alert.careTeam) else {
                    return nil
                }
                do { return try write(store, id, principal, now) } catch AlertStoreError.alreadyResolved {
                    throw HTTPError.conflict("The alert is resolved already.")
                }
            }
            guard let changed else { throw HTTPError.notFound("No such alert.") }
            return (Response.json(AlertWire.encode(changed)), 1)
        }
    }
}
