import CareSyncCore
import HTTPTypes
import Foundation
import Synchronization

/// One bulk export as the instance running it holds it: who asked, what it reads and where its files go. Its phase,
/// progress and outcome live in the shared `BulkExportStore` (`record`), so any instance answers its status.
final class ExportJob: Sendable {
    /// The job id: 122 random bits, the last segment of the status URL.
    let id: String
    /// The token that asked: the only one that may poll, download or cancel.
    let ownerTokenID: String
    /// The caller, as authenticated at kick-off (its role and reach, for the audit records of the run).
    let principal: Principal
    /// The patients exported, in order.
    let patients: [String]
    /// The patient its audit records name: the patient of a `Patient` export, nil for a `Group`.
    let auditPatient: String?
    /// The readable types (nil: every type); an empty set exports nothing.
    let types: Set<SampleType>?
    /// What `_since` asked for.
    let since: ExportSince
    /// The patients exported from the beginning whatever `_since` says: a `Group`'s members who joined after the mark.
    let fromStart: Set<String>
    /// A `Group` export's membership mark (the last join it saw) for the next `_since`; nil for a `Patient` export.
    let members: Int64?
    /// The kick-off URL (`request` in the manifest).
    let request: String
    /// The FHIR base the file URLs start with.
    let base: String
    /// The folder of this job's files.
    let directory: URL
    /// When it was asked for.
    let created: Date
    private let cancelled = Atomic(false)

    /// A queued job.
    init(id: String, principal: Principal, patients: [String], auditPatient: String?, types: Set<SampleType>?, since: ExportSince,
         fromStart: Set<String> = [], members: Int64? = nil, request: String, base: String, directory: URL, created: Date) {
        self.fromStart = fromStart; self.members = members
        self.id = id; self.ownerTokenID = principal.tokenID; self.principal = principal; self.patients = patients
        self.auditPatient = auditPatient
        self.types = types; self.since = since; self.request = request; self.base = base; self.directory = directory
        self.created = created
    }

    /// Asks the run to stop at its next page.
    func cancel() { cancelled.store(true, ordering: .releasing) }

    /// Whether `cancel()` was called.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Its status URL (the kick-off's `Content-Location`).
    var statusURL: String { BulkExports.statusURL(base: base, id: id) }

    /// Its shared record in `phase`, with the progress, outcome and expiry given, its heartbeat at `now`.
    func record(_ phase: BulkExportRecord.Phase, patientsDone: Int = 0, resources: Int = 0, outcome: [UInt8] = [],
                now: Date, expiresAt: Date? = nil) -> BulkExportRecord {
        BulkExportRecord(id: id, ownerTokenID: ownerTokenID, auditPatient: auditPatient, patientCount: patients.count,
                         request: request, base: base, phase: phase, patientsDone: patientsDone, resources: resources,
                         outcome: outcome, createdAt: created, heartbeatAt: now, expiresAt: expiresAt)
    }
}

extension BulkExportRecord {
    /// Its status URL (the kick-off's `Content-Location`).
    var statusURL: String { BulkExports.statusURL(base: base, id: id) }

    /// The URL of one of its files.
    func fileURL(_ name: String) -> String { statusURL + "/" + name }

    /// The manifest's facts of a completed export; nil otherwise.
    var result: ExportResult? {
        guard phase == .completed else { return nil }
        return try? JSONDecoder().decode(ExportResult.self, from: Data(outcome))
    }

    /// The error of a failed export; nil otherwise.
    var failure: FHIRError? {
        guard phase == .failed, let failure = try? JSONDecoder().decode(ExportFailure.self, from: Data(outcome)) else { return nil }
        return FHIRError(status: HTTPResponse.Status(code: failure.status), issue: failure.issue, diagnostics: failure.diagnostics)
    }
}

/// A failed export's error as its record keeps it (no patient data in it).
struct ExportFailure: Codable, Sendable {
    /// The HTTP status answered.
    var status: Int
    /// The OperationOutcome issue code.
    var issue: String
    /// What went wrong, for a person.
    var diagnostics: String

    /// The error's stored form.
    init(_ error: FHIRError) { status = error.status.code; issue = error.issue; diagnostics = error.diagnostics }

    /// The JSON its record keeps.
    var encoded: [UInt8] { (try? Array(JSONEncoder().encode(self))) ?? [] }
}

/// What a completed export produced: the manifest's facts.
struct ExportResult: Codable, Sendable {
    /// One NDJSON file and its line count.
    struct File: Codable, Sendable, Hashable {
        /// The file name in the job's folder.
        var name: String
        /// Resources (lines) in it.
        var count: Int
    }

    /// The instant the export's position was taken (the manifest's `transactionTime`).
    var transactionTime: Date
    /// The anchor to pass as `_since` next time, sealed.
    var nextSince: String
    /// Observation files.
    var output: [File]
    /// Files of transaction Bundles with the DELETE entries.
    var deleted: [File]
    /// When it finished.
    var completedAt: Date
    /// When its files are removed.
    var expiresAt: Date

    /// The JSON its record keeps.
    var encoded: [UInt8] { (try? Array(JSONEncoder().encode(self))) ?? [] }
}
