import CareSyncCore
import CareSyncHTTP
import Foundation

/// FHIR R4 over the sync store: Observations of the patients in the caller's reach, and the CapabilityStatement
/// (docs/fhir.md). It holds only what it uses: the stores, the reach check, authentication and the audit log.
struct FHIRController: Sendable {
    /// Search page sizes.
    struct Limits: Sendable {
        /// `_count` when absent.
        var defaultCount = 50
        /// The largest `_count`.
        var maxCount = 1000
        /// Samples read from the store per feed page while a search scans.
        var scanPage = 5000
        /// Days per statistics query while a daily-total search walks the patient's days.
        var dailyWindowDays = 92
    }

    /// Authentication, reach and audit, shared with every controller.
    let gate: AccessGate
    let store: any SyncStore
    /// Patients in reach and the therapist tokens' sources (`performer`).
    let access: any AccessStore
    let executor: BlockingExecutor
    var limits = Limits()
    /// The public base URL (`https://caresync.example.org`), when links must not follow the `Host` header.
    var publicURL: String?

    /// The reach check of the API's authenticator.
    var authenticator: Authenticator { gate.authenticator }
    /// The audit log every read is recorded in.
    var audit: AuditLog { gate.audit }
    /// The API's clock.
    var clock: ServerClock { gate.clock }

    /// The rate-limited authentication of the API (`Authorization` header, client address).
    func authenticate(_ request: Request, _ context: APIContext) async throws -> Principal {
        try await gate.authenticate(request, context)
    }

    /// The FHIR routes.
    var routes: [APIRoute] {
        [
            APIRoute(.get, FHIRBaseURL.path + "/metadata", metadata),
            APIRoute(.get, FHIRBaseURL.path + "/Observation", searchObservations),
            APIRoute(.get, FHIRBaseURL.path + "/Observation/{observationId}", readObservation),
        ]
    }

    /// GET /fhir/R4/metadata: the CapabilityStatement; needs no token (it shows no patient data).
    func metadata(_ request: Request, _ context: APIContext) async throws -> Response {
        try await answering {
            Response.fhir(FHIRCapabilities.statement(base: try FHIRBaseURL.of(request, configured: publicURL)))
        }
    }

    /// Runs `body`; FHIR refusals and the API's 4xx refusals become OperationOutcomes, others stay the API's problems.
    func answering(_ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as FHIRError {
            return error.response
        } catch let error as HTTPError {
            guard let fhir = FHIRError.from(error) else { throw error }
            return fhir.response
        }
    }

    /// Commits the audit record of one FHIR request, then answers; a refusal is recorded with its status and 0 items.
    func audited(_ scope: AuditScope, _ body: () async throws -> (Response, Int)) async throws -> Response {
        let reply: Response, count: Int
        do {
            (reply, count) = try await body()
        } catch {
            let status = (error as? FHIRError)?.status.code ?? (error as? HTTPError)?.status.code ?? 500
            try? await audit.commit(scope.record(count: 0, status: status, time: clock.now()))
            throw error
        }
        try await audit.commit(scope.record(count: count, status: reply.status.code, time: clock.now()))
        return reply
    }

    /// 404 unless `principal` reaches `patient`: the proven reach, else one read on this controller's executor.
    func requireReach(_ principal: Principal, patient: String) async throws {
        let authenticator = self.authenticator
        guard !authenticator.isKnownInReach(principal, patient: patient) else { return }
        try await blocking { try authenticator.requireReach(principal, patient: patient) }
    }

    /// Runs blocking store work off the cooperative pool; store errors become API errors.
    func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        do {
            return try await executor.run(body)
        } catch let e as SyncError {
            throw HTTPError.from(e)
        }
    }

    /// The sources that belong to therapist tokens: their samples (weekly reports) carry a `performer`.
    func therapistSources() async throws -> Set<String> {
        let access = self.access
        return try await blocking { Set(try access.tokens().filter { $0.role == .therapist }.map(\.source)) }
    }
}
