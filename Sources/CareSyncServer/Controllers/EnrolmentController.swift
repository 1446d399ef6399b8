import CareSyncCore
import CareSyncHTTP
import Foundation

/// Device enrolment (docs/api.md, "Device enrolment"): a therapist or admin makes a one-time code for a patient,
/// shown as text and as a QR code of the enrolment link; the device redeems it, without a token, for a device token
/// of that patient and its source. Only a hash of each code is stored; the code is never logged or audited.
struct EnrolmentController: Sendable {
    let gate: AccessGate
    let admin: AccessAdmin
    /// Nil when the server was built without one: the routes exist and answer 503.
    let enrolments: (any EnrolmentStore)?
    let calls: StoreCalls
    let clock: ServerClock
    let settings: EnrolmentSettings
    /// Each client address's budget of redemption attempts.
    let redeemBudget: RateLimiter

    /// Its endpoints.
    var routes: [APIRoute] {
        [
            APIRoute(.post, "/v1/patients/{patientId}/enrolments", create),
            APIRoute(.get, "/v1/patients/{patientId}/enrolments", list),
            APIRoute(.delete, "/v1/patients/{patientId}/enrolments/{enrolmentId}", cancel),
            APIRoute(.get, "/v1/patients/{patientId}/devices", devices),
            APIRoute(.post, "/v1/enrolments/redeem", redeem),
        ]
    }

    /// POST /v1/patients/{patientId}/enrolments: a new one-time code, its link and QR code, shown this once.
    func create(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.therapistOrAdminScoped(request, context, action: "enrolments.create") { principal, patient in
            let store = try self.requireStore()
            let origin = try EnrolmentLink.origin(of: request, configured: self.settings.publicURL)
            let now = self.clock.now(), code = EnrolmentCode.generate()
            let record = EnrolmentRecord(id: TokenSecret.generate().id, patient: patient,
                                         codeHash: TokenSecret.hash(EnrolmentCode.normalized(code)!), createdBy: principal.tokenID,
                                         createdAt: now, expiresAt: now.addingTimeInterval(self.settings.codeLifetime))
            try await self.calls.blocking { try store.insertEnrolment(record) }
            let link = EnrolmentLink.url(origin: origin, code: code)
            return (Response.json(EnrolmentWire.created(record, code: code, url: link), status: .created), 1)
        }
    }

    /// GET /v1/patients/{patientId}/enrolments: the patient's pending enrolments (never their codes).
    func list(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.therapistOrAdminScoped(request, context, action: "enrolments.read") { _, patient in
            let store = try self.requireStore()
            let now = self.clock.now()
            let pending = try await self.calls.blocking { try store.pendingEnrolments(patient: patient, at: now) }
            return (Response.json(["patient": .string(patient), "enrolments": .array(pending.map(EnrolmentWire.encode))]), pending.count)
        }
    }

    /// DELETE /v1/patients/{patientId}/enrolments/{enrolmentId}: cancels a pending enrolment; 404 when none is pending.
    func cancel(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.therapistOrAdminScoped(request, context, action: "enrolments.cancel") { _, patient in
            let store = try self.requireStore()
            let id = try context.parameter("enrolmentId"), now = self.clock.now()
            let cancelled = try await self.calls.blocking { () throws -> Bool in
                guard try store.enrolment(id: id)?.patient == patient else { return false }
                return try store.cancelEnrolment(id: id, at: now)
            }
            guard cancelled else { throw HTTPError.notFound("No pending enrolment \(id) of this patient.") }
            return (Response(status: .noContent), 1)
        }
    }

    /// GET /v1/patients/{patientId}/devices: the patient's enrolled sources with their display names and last writes.
    func devices(_ request: Request, _ context: APIContext) async throws -> Response {
        try await gate.therapistOrAdminScoped(request, context, action: "devices.read") { _, patient in
            let store = try self.requireStore()
            let received = DeviceLastReceived(access: self.admin.store)
            let list = try await self.calls.blocking {
                try store.deviceSources(patient: patient).map { ($0, try received.time(patient: patient, token: $0.tokenID)) }
            }
            return (Response.json(["patient": .string(patient), "devices": .array(list.map(EnrolmentWire.encode))]), list.count)
        }
    }

    func requireStore() throws -> any EnrolmentStore {
        guard let enrolments else { throw HTTPError.unavailable("Device enrolment is not available on this server.") }
        return enrolments
    }
}
