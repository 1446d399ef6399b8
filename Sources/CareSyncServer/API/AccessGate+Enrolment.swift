import CareSyncCore
import CareSyncHTTP

extension AccessGate {
    /// Authenticates a therapist with reach to `{patientId}` or an admin (for whom the patient must exist), runs `body`,
    /// and commits an audit record before the answer leaves; a device token is 403, a patient out of reach 404.
    func therapistOrAdminScoped(_ request: Request, _ context: APIContext, action: String,
                                _ body: @escaping @Sendable (Principal, String) async throws -> (Response, Int)) async throws -> Response {
        let principal = try await authenticate(request, context)
        let patient = context.parameters["patientId"] ?? ""
        let scope = AuditScope(principal: principal, patient: PathID.auditPatient(patient), action: action)
        let reply: Response, count: Int
        do {
            let authenticator = self.authenticator
            try await calls.blocking {
                switch principal.role {
                case .admin:
                    guard try authenticator.store.patient(id: patient) != nil else { throw HTTPError.notFound("No such patient.") }
                case .therapist:
                    try authenticator.requireReach(principal, patient: patient)
                case .device:
                    try authenticator.requireReach(principal, patient: patient)
                    throw HTTPError.forbidden("Enrolments are made by a therapist or an admin token.")
                }
            }
            (reply, count) = try await body(principal, patient)
        } catch {
            try? await audit.commit(scope.record(count: 0, status: (error as? HTTPError)?.status.code ?? 500, time: clock.now()))
            throw error
        }
        try await audit.commit(scope.record(count: count, status: reply.status.code, time: clock.now()))
        return reply
    }
}
