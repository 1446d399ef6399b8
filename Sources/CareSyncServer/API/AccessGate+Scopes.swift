import CareSyncCore
import CareSyncHTTP

extension AccessGate {
    /// Authenticates, checks reach to `{patientId}`, runs `body`, and commits an audit record with the
    /// status answered and the item count `body` reports (0 on failure) before the answer leaves.
    func patientScoped(_ request: Request, _ context: APIContext, action: String,
                       _ body: @escaping @Sendable (Principal, String) async throws -> (Response, Int)) async throws -> Response {
        try await patientScopedWrite(request, context, action: action) { principal, patient, _ in try await body(principal, patient) }
    }

    /// `patientScoped` for a handler that may store the audit record itself: a write in its own transaction (see
    /// `KeyedWriter`), or the feed while it writes the page (`FeedController.getChanges`).
    func patientScopedWrite(_ request: Request, _ context: APIContext, action: String,
                            _ body: @escaping @Sendable (Principal, String, AuditScope) async throws -> (Response, Int)) async throws -> Response {
        let principal = try await authenticate(request, context)
        let patient: String
        do {
            patient = try context.parameter("patientId")
        } catch {
            // Refused before any lookup; the record names the id by its hash, never by its text.
            let scope = AuditScope(principal: principal, patient: PathID.auditPatient(context.parameters["patientId"]), action: action)
            try? await audit.commit(scope.record(count: 0, status: error.status.code, time: clock.now()))
            throw error
        }
        let scope = AuditScope(principal: principal, patient: patient, action: action)
        let reply: Response, count: Int
        do {
            try await authenticator.requireReach(principal, patient: patient, on: calls)
            (reply, count) = try await body(principal, patient, scope)
        } catch {
            // The refusal is answered even if its record cannot be stored: it shows no patient data.
            try? await audit.commit(scope.record(count: 0, status: (error as? HTTPError)?.status.code ?? 500, time: clock.now()))
            throw error
        }
        if !scope.isStored {
            try await audit.commit(scope.record(count: count, status: reply.status.code, time: clock.now()))
        }
        return reply
    }

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
            try? await audit.commit(scope.record(count: 0, status: (error as? HTTPError)?.status.code ?? 500, time: clock.now()))
            throw error
        }
        // The action is already committed; if its record cannot be, the admin is told 503 and sees no result.
        try await audit.commit(scope.record(count: 1, status: reply.status.code, time: clock.now()))
        return reply
    }
}
