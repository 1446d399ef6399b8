import Foundation

/// A FHIR bulk export as every instance over the database sees it: who started it, how far it is, and what it
/// produced (docs/fhir.md, "Bulk export"). The instance that took the kick-off runs it and writes its progress here;
/// any instance answers its status, cancels it, or serves its files.
public struct BulkExportRecord: Sendable, Equatable {
    /// Where an export is.
    public enum Phase: String, Sendable {
        /// Waiting for the exports before it on its instance.
        case queued
        /// Reading and writing files.
        case running
        /// Done: `outcome` holds the manifest's facts.
        case completed
        /// Stopped by an error: `outcome` holds the error.
        case failed
    }

    /// The export id: 122 random bits, the last segment of the status URL.
    public var id: String
    /// The id of the token that started it: the only one that may poll, download or cancel.
    public var ownerTokenID: String
    /// The patient its audit records name: the patient of a `Patient` export, nil for a `Group`.
    public var auditPatient: String?
    /// How many patients it reads.
    public var patientCount: Int
    /// The kick-off URL (the manifest's `request`).
    public var request: String
    /// The FHIR base the status and file URLs start with.
    public var base: String
    /// Where it is.
    public var phase: Phase
    /// Patients read to the end so far.
    public var patientsDone: Int
    /// Observations and deletions written so far.
    public var resources: Int
    /// The server's encoding of the manifest's facts (completed) or of the error (failed); empty before.
    public var outcome: [UInt8]
    /// When it was asked for.
    public var createdAt: Date
    /// The last sign of life of the instance running it (its progress, or a beat while queued): a queued or running
    /// export whose beat is old lost its instance.
    public var heartbeatAt: Date
    /// When it and its files are forgotten, once completed or failed.
    public var expiresAt: Date?

    /// A record; times are kept to the millisecond.
    public init(id: String, ownerTokenID: String, auditPatient: String?, patientCount: Int, request: String, base: String,
                phase: Phase = .queued, patientsDone: Int = 0, resources: Int = 0, outcome: [UInt8] = [],
                createdAt: Date, heartbeatAt: Date, expiresAt: Date? = nil) {
        self.id = id; self.ownerTokenID = ownerTokenID; self.auditPatient = auditPatient; self.patientCount = patientCount
        self.request = request; self.base = base; self.phase = phase; self.patientsDone = patientsDone
        self.resources = resources; self.outcome = outcome
        self.createdAt = SyncRules.date(milliseconds: SyncRules.milliseconds(createdAt))
        self.heartbeatAt = SyncRules.date(milliseconds: SyncRules.milliseconds(heartbeatAt))
        self.expiresAt = expiresAt.map { SyncRules.date(milliseconds: SyncRules.milliseconds($0)) }
    }

    /// Whether it has ended (completed or failed).
    public var isFinished: Bool { phase == .completed || phase == .failed }
}
