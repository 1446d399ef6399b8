import CareSyncCore
import CareSyncHTTP
import Foundation
import HTTPTypes

extension FHIRExportController {
    /// GET /fhir/R4/bulk-export/{id}: 202 with `X-Progress` and `Retry-After` while queued or running, 200 with the
    /// manifest (and `Expires`) when done, the export's error when it failed, 404 when unknown, cancelled, expired or
    /// started by another token, and a finished export's manifest 404 while the caller no longer reaches a patient it read.
    func status(_ request: Request, _ context: APIContext) async throws -> Response {
        try await withJob(request, context, action: "fhir.export.status") { job, principal in
            switch job.phase {
            case .queued:
                return (progress("queued"), 0)
            case .running:
                return (progress("patient \(min(job.patientsDone + 1, job.patientCount)) of \(job.patientCount), \(job.resources) items written"), 0)
            case .completed:
                guard let result = job.result else { throw Self.unreadable }
                try await requireReach(toEveryPatientOf: job, principal)
                let manifest = ExportWire.manifest(job, result)
                let headers: HTTPFields = [.contentType: "application/json", .expires: Self.httpDate(result.expiresAt)]
                return (Response(status: .ok, headers: headers, body: .bytes(manifest.serialized())),
                        result.output.reduce(0) { $0 + $1.count } + result.deleted.reduce(0) { $0 + $1.count })
            case .failed:
                throw job.failure ?? Self.unreadable
            }
        }
    }

    /// DELETE /fhir/R4/bulk-export/{id}: cancels a queued or running export, or removes a finished one's files; 202.
    /// Its status and files are 404 from then on.
    func cancel(_ request: Request, _ context: APIContext) async throws -> Response {
        try await withJob(request, context, action: "fhir.export.cancel") { job, _ in
            try await exports.cancel(job)
            let outcome = ExportWire.outcome(severity: "information", code: "informational", "Export cancelled; its files are removed.")
            return (Response.fhir(outcome, status: .accepted), 0)
        }
    }

    /// GET /fhir/R4/bulk-export/{id}/{file}: one NDJSON file of a completed export, streamed from disk; 404 once the
    /// caller no longer reaches a patient the export read (taken off the caller's care team since).
    func file(_ request: Request, _ context: APIContext) async throws -> Response {
        try await withJob(request, context, action: "fhir.export.file") { job, principal in
            let name = context.parameters["fileName"] ?? ""
            let folder = exports.folder(of: job.id)
            guard let result = job.result, let file = (result.output + result.deleted).first(where: { $0.name == name }) else {
                throw FHIRError.notFound("No such file in this export.")
            }
            try await requireReach(toEveryPatientOf: job, principal)
            guard let handle = FileHandle(forReadingAtPath: folder.appendingPathComponent(name).path) else {
                throw FHIRError(status: .internalServerError, issue: "exception",
                                diagnostics: "The export's files are not in this server's export.directory (every instance must share it).")
            }
            let executor = fhir.executor
            let chunks = AsyncThrowingStream<[UInt8], any Error> {
                let bytes = try await executor.run { try handle.read(upToCount: 256 * 1024) ?? Data() }
                guard !bytes.isEmpty else { try? handle.close(); return nil }
                return [UInt8](bytes)
            }
            return (Response(status: .ok, headers: [.contentType: "application/fhir+ndjson"], body: .stream(chunks)), file.count)
        }
    }

    /// Authenticates, finds the caller's own export (else 404), runs `body` with it and the caller, and commits the audit
    /// record of `action` (the patient of a Patient export, none for a Group) before the answer leaves.
    func withJob(_ request: Request, _ context: APIContext, action: String,
                 _ body: (BulkExportRecord, Principal) async throws -> (Response, Int)) async throws -> Response {
        try await fhir.answering {
            let principal = try await fhir.authenticate(request, context)
            let id = context.parameters["exportId"] ?? ""
            let job = PathID.isValid(id, name: "exportId") ? try await exports.export(id, for: principal, now: exports.clock.now()) : nil
            return try await fhir.audited(AuditScope(principal: principal, patient: job?.auditPatient, action: action)) {
                guard let job else {
                    throw FHIRError.notFound("No such export: unknown, cancelled, expired, or started by another token.")
                }
                return try await body(job, principal)
            }
        }
    }

    /// 404 unless the caller still reaches every patient `job` read: its manifest (counts a type) and files hold a
    /// patient's data only as long as the reach that read it lasts (the proven reach, else one read a patient).
    func requireReach(toEveryPatientOf job: BulkExportRecord, _ principal: Principal) async throws {
        let store = exports.store, id = job.id
        let patients = try await fhir.blocking { try store.exportPatients(id: id) }
        for patient in patients {
            do {
                try await fhir.requireReach(principal, patient: patient)
            } catch let error as HTTPError where error.status == .notFound {
                throw FHIRError.notFound("This export read a patient you no longer reach; its manifest and files are not served. Start a new export.")
            }
        }
    }

    /// A record this server cannot read (written by a newer version).
    static let unreadable = FHIRError(status: .internalServerError, issue: "exception",
                                      diagnostics: "The export's record cannot be read; start it again.")

    /// 202 with the progress and when to poll again.
    func progress(_ text: String) -> Response {
        Response(status: .accepted, headers: [HTTPField.Name("X-Progress")!: text, .retryAfter: String(Self.retryAfterSeconds)])
    }

    /// An HTTP date (RFC 9110 IMF-fixdate).
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
