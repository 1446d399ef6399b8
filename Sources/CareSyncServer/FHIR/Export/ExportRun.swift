import CareSyncCore
import CareSyncHTTP
import CareSyncParallel
import Foundation
import Logging

/// Runs one bulk export: reads each patient's change feed from `_since` up to the head taken at its start, a page
/// at a time through the feed reader (`ChangeReader.readPage`: the feed's query, reach checked at kick-off and again
/// before every page, the caller's readable types), and appends each page to NDJSON files before reading the next one.
struct ExportRun: Sendable {
    /// The feed reader: pages, the anchors' seal, the store calls.
    let reader: ChangeReader
    /// The audit log: one `fhir.export.read` record per patient exported.
    let audit: AuditLog
    /// The therapist tokens' sources (`performer`).
    let access: any AccessStore
    /// The exports' shared records: the run's phase and progress.
    let records: any BulkExportStore
    let clock: ServerClock
    let settings: BulkExports.Settings
    let logger: Logger

    /// Runs `job` to completion, failure or cancellation, writing its phase and progress into its record; a failed or
    /// cancelled run leaves no file behind. A record gone meanwhile (cancelled on any instance, or erased) stops it.
    func run(_ job: ExportJob) async {
        do {
            try await record(job.record(.running, now: clock.now()))
            let result = try await export(job)
            guard !job.isCancelled else { throw CancellationError() }
            try await record(job.record(.completed, outcome: result.encoded, now: clock.now(), expiresAt: result.expiresAt))
        } catch {
            BulkExports.remove(job.directory)
            guard !job.isCancelled, !(error is CancellationError) else { return }
            let failure = (error as? HTTPError).flatMap(FHIRError.from)
                ?? FHIRError(status: .internalServerError, issue: "exception", diagnostics: "The export failed; start it again.")
            let now = clock.now()
            do {
                try await record(job.record(.failed, outcome: ExportFailure(failure).encoded, now: now,
                                            expiresAt: now.addingTimeInterval(settings.expiry)))
            } catch is CancellationError {
                return  // cancelled on another instance, or erased, while it ran: no failure (its folder went under it)
            } catch {}
            logger.error("export.failed", metadata: ["export.id": .string(job.id), "error.type": .string(String(describing: type(of: error)))])
        }
    }

    /// Writes `record` over the export's; throws `CancellationError` when the export is gone (cancelled or erased).
    func record(_ record: BulkExportRecord) async throws {
        let records = self.records
        guard try await reader.calls.blocking({ try records.updateExport(record) }) else { throw CancellationError() }
    }

    /// Reads and writes every patient of `job`; answers the manifest's facts.
    func export(_ job: ExportJob) async throws -> ExportResult {
        let store = reader.store
        // The position, then its write time: every change up to it was committed at or before `transactionTime`, every
        // later one at or after it, so `_since=transactionTime` misses none (an empty log: the time now).
        let head = try await reader.calls.blocking { try store.currentAnchor() }
        let transactionTime = try await reader.calls.blocking { try store.writeTime(of: head.sequence) } ?? clock.now()
        let output = NDJSONFiles(directory: job.directory, prefix: "observation", linesPerFile: settings.linesPerFile)
        let deleted = NDJSONFiles(directory: job.directory, prefix: "deleted", linesPerFile: settings.linesPerFile)
        let access = self.access
        let therapists = try await reader.calls.blocking { Set(try access.tokens().filter { $0.role == .therapist }.map(\.source)) }
        var total = 0
        for (index, patient) in job.patients.enumerated() {
            let count = try await exportPatient(patient, of: job, through: head, output: output, deleted: deleted,
                                                therapists: therapists, before: total, index: index)
            total += count
            let scope = AuditScope(principal: job.principal, patient: patient, action: "fhir.export.read")
            try await audit.commit(scope.record(count: count, status: 200, time: clock.now()))
        }
        let now = clock.now()
        return ExportResult(transactionTime: transactionTime, nextSince: ExportSince.token(reader.anchors.encode(head), members: job.members),
                            output: try output.finish(), deleted: try deleted.finish(),
                            completedAt: now, expiresAt: now.addingTimeInterval(settings.expiry))
    }

    /// One patient's changes after `_since` through `head`, page by page; answers how many it wrote (Observations and deletions).
    func exportPatient(_ patient: String, of job: ExportJob, through head: Anchor, output: NDJSONFiles, deleted: NDJSONFiles,
                       therapists: Set<String>, before: Int, index: Int) async throws -> Int {
        // Nothing readable: nothing to write (the anchor was checked at kick-off).
        if let types = job.types, types.isEmpty { return 0 }
        let anchor = job.fromStart.contains(patient) ? nil : job.since.anchor
        var query = ChangeQuery(patient: patient, anchor: anchor, types: job.types, limit: settings.pageSize,
                                through: head.sequence, writeTimes: true)
        var count = 0
        while true {
            guard !job.isCancelled else { throw CancellationError() }
            // Taken off the caller's care team (or erased) since the kick-off: nothing more of the patient is read.
            guard try await reader.tokens.stillInReach(job.principal, patient: patient) else { return count }
            let page = try await reader.readPage(query, generation: reader.notifier.generation(of: patient))
            count += try await reader.calls.blocking {
                let lines = Self.lines(page, patient: patient, therapists: therapists)
                try output.append(lines)
                let gone = page.deletedObjects
                if !gone.isEmpty { try deleted.append([ExportWire.deletedBundle(gone).serialized()]) }
                return lines.count + gone.count
            }
            try await record(job.record(.running, patientsDone: index, resources: before + count, now: clock.now()))
            guard page.hasMore else { return count }
            query.anchor = page.anchor
        }
    }

    /// The page's Observations as NDJSON lines, in order; a large page is written in two halves on two cores.
    static func lines(_ page: ChangeSet, patient: String, therapists: Set<String>) -> [[UInt8]] {
        let samples = page.samples
        let parts = samples.count >= 200 && Parallel.cores > 1 ? 2 : 1
        let halves = Parallel.map(parts) { part in
            let range = part == 0 ? 0..<(samples.count / parts) : (samples.count / parts)..<samples.count
            return samples[range].map { sample in
                ObservationLineWriter.line(ObservationMapper.observation(of: sample, patient: patient,
                                                                         enteredByTherapist: therapists.contains(sample.source),
                                                                         lastUpdated: page.writeTimes[sample.uuid]))
            }
        }
        return Array(halves.joined())
    }
}
