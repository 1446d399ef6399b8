import CareSyncCore
import CareSyncHTTP
import Foundation
import HTTPTypes

/// FHIR Bulk Data `$export` of Observations (docs/fhir.md, "Bulk export"): the kick-offs of one patient and of a care
/// team (a `Group`), the status URL (poll, cancel) and the files, all answered to the token that started the export.
struct FHIRExportController: Sendable {
    /// Authentication, reach, audit, the FHIR answers and base URL.
    let fhir: FHIRController
    /// The exports: shared records, this instance's runs.
    let exports: BulkExports
    /// Opens `_since` anchors.
    let anchors: AnchorWire

    /// Seconds a client is asked to wait between polls.
    static let retryAfterSeconds = 2

    /// The export routes.
    var routes: [APIRoute] {
        let status = FHIRBaseURL.path + "/\(BulkExports.routeSegment)/{exportId}"
        return [
            APIRoute(.get, FHIRBaseURL.path + "/Patient/{patientId}/$export", exportPatient),
            APIRoute(.get, FHIRBaseURL.path + "/Group/{groupId}/$export", exportGroup),
            APIRoute(.get, status, self.status),
            APIRoute(.delete, status, cancel),
            APIRoute(.get, status + "/{fileName}", file),
        ]
    }

    /// GET /fhir/R4/Patient/{id}/$export: one patient in the caller's reach (a device token: its own patient).
    func exportPatient(_ request: Request, _ context: APIContext) async throws -> Response {
        try await fhir.answering {
            let principal = try await fhir.authenticate(request, context)
            let patient = context.parameters["patientId"] ?? ""
            let valid = PathID.isValid(patient, name: "patientId")
            let scope = AuditScope(principal: principal, patient: valid ? patient : PathID.auditPatient(patient), action: "fhir.export.start")
            return try await fhir.audited(scope) {
                guard valid else { throw FHIRError.notFound("No such patient.") }
                try await fhir.requireReach(principal, patient: patient)
                return (try await kickOff(request, principal, patients: [patient], auditPatient: patient), 0)
            }
        }
    }

    /// GET /fhir/R4/Group/{careTeam}/$export: every patient of a care team of the caller's therapist token.
    func exportGroup(_ request: Request, _ context: APIContext) async throws -> Response {
        try await fhir.answering {
            let principal = try await fhir.authenticate(request, context)
            let team = context.parameters["groupId"] ?? ""
            return try await fhir.audited(AuditScope(principal: principal, patient: nil, action: "fhir.export.start")) {
                let access = fhir.access
                guard principal.role == .therapist, principal.token.careTeams.contains(team),
                      let members = try await fhir.blocking({ try access.careTeamMembers(team) }) else {
                    throw FHIRError.notFound("No such Group: a Group is a care team of this therapist token.")
                }
                return (try await kickOff(request, principal, patients: members.keys.sorted(), members: members, auditPatient: nil), 0)
            }
        }
    }

    /// Checks the parameters and a `_since` anchor (400, 410), queues the export and answers 202 with its status URL.
    /// A `Group` export passes its `members` with the order each joined: those who joined after the `_since` mark are
    /// exported from the beginning (their history predates the previous export), and the manifest carries the new mark.
    func kickOff(_ request: Request, _ principal: Principal, patients: [String], members: [String: Int64]? = nil,
                 auditPatient: String?) async throws -> Response {
        var kickoff = try ExportKickoff.parse(request, anchors: anchors)
        let parsed = kickoff.since, store = fhir.store
        kickoff.since = try await fhir.blocking { try parsed.resolved(in: store) }
        if kickoff.since.members != nil, members == nil {
            throw FHIRError.invalid("'_since' carries a Group export's membership mark: pass it to that Group's $export.")
        }
        let mark = members.map { $0.values.max() ?? 0 }
        let fromStart = Set((members ?? [:]).filter { joined in kickoff.since.members.map { joined.value > $0 } ?? false }.keys)
        let base = try FHIRBaseURL.of(request, configured: fhir.publicURL)
        if let anchor = kickoff.since.anchor {
            _ = try await fhir.blocking { try store.changes(ChangeQuery(patient: patients.first ?? "", anchor: anchor, limit: 1)) }
        }
        let query = request.head.target.split(separator: "?", maxSplits: 1).dropFirst().first.map { "?" + $0 } ?? ""
        let job: ExportJob
        do {
            job = try await exports.submit(principal: principal, patients: patients,
                                     types: kickoff.observations ? principal.readable(nil) : [], since: kickoff.since,
                                     fromStart: fromStart, members: mark,
                                     request: base + String(request.head.path.dropFirst(FHIRBaseURL.path.count)) + query, base: base,
                                     auditPatient: auditPatient)
        } catch BulkExports.Refusal.full {
            throw HTTPError.tooManyRequests("Too many exports are queued on this server; retry later.", retryAfter: 60)
        } catch BulkExports.Refusal.stopped {
            throw HTTPError.unavailable("The server is stopping; retry shortly.")
        }
        let outcome = ExportWire.outcome(severity: "information", code: "informational",
                                         "Export queued: poll the Content-Location URL with the same token.")
        return Response.fhir(outcome, status: .accepted, headers: [.contentLocation: job.statusURL])
    }
}
