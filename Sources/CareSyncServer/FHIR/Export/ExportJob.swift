import CareSyncCore
import CareSyncLocking
import Foundation
import Synchronization

/// One bulk export: who asked, what it reads, where its files go, and how far it is. Kept in memory by the
/// instance that started it (`BulkExports`); its state moves queued → running → completed or failed.
final class ExportJob: Sendable {
    /// Where a job is.
    enum State: Sendable {
        /// Waiting for the export before it to finish (one export runs at a time per instance).
        case queued
        /// Reading and writing: patients done of all, Observations and deletions written so far.
        case running(patientsDone: Int, resources: Int)
        /// Done: the manifest's facts; its files expire at `result.expiresAt`.
        case completed(ExportResult)
        /// Stopped by an error (answered as the status; no patient data in it), forgotten at `expiresAt`.
        case failed(FHIRError, expiresAt: Date)
    }

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
    private let state = Locked(State.queued)
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

    /// The current state.
    var current: State { state.withLock { $0 } }

    /// Moves to `next` (the run's progress and its end).
    func move(to next: State) { state.withLock { $0 = next } }

    /// Asks the run to stop at its next page.
    func cancel() { cancelled.store(true, ordering: .releasing) }

    /// Whether `cancel()` was called.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// When it and its files are forgotten, once completed or failed; nil while queued or running.
    var expiresAt: Date? {
        switch current {
        case .completed(let result): return result.expiresAt
        case .failed(_, let expiresAt): return expiresAt
        case .queued, .running: return nil
        }
    }

    /// Its status URL (the kick-off's `Content-Location`).
    var statusURL: String { "\(base)/\(BulkExports.routeSegment)/\(id)" }

    /// The URL of one of its files.
    func fileURL(_ name: String) -> String { statusURL + "/" + name }
}

/// What a completed export produced: the manifest's facts.
struct ExportResult: Sendable {
    /// One NDJSON file and its line count.
    struct File: Sendable, Hashable {
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
}
