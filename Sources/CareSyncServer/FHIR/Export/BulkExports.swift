import CareSyncCore
import Foundation
import Logging
import CareSyncLocking

/// The bulk exports: their records in the shared `BulkExportStore` (so any instance answers a status URL, a cancel or a
/// file), and the runs this instance took at kick-off, one at a time, the others waiting in order. An export and its
/// files are forgotten `expiry` after it ends (`sweep`, and at once for every request after that time), when cancelled,
/// or when a patient it reads is erased (docs/fhir.md, "Bulk export").
final class BulkExports: Sendable {
    /// The path segment under the FHIR base of status and file URLs: `/fhir/R4/bulk-export/{jobId}[/{file}]`.
    static let routeSegment = "bulk-export"

    /// Where files go, how long they stay, and the sizes of pages and files.
    struct Settings: Sendable {
        /// The folder holding one folder per export (created 0700); shared by every instance over the database.
        var directory: URL
        /// Seconds an export's files and status stay after it ends.
        var expiry: TimeInterval = 3600
        /// Feed items read (and held in memory) per page.
        var pageSize = 1000
        /// Lines per NDJSON file before the next file starts.
        var linesPerFile = 100_000
        /// Exports queued or running at once on this instance; more is 429.
        var maxUnfinished = 16
        /// Seconds without a heartbeat after which a queued or running export has lost its instance (answered failed).
        var staleAfter: TimeInterval = 180
        /// Seconds a folder no export names is kept before the sweep removes it (the grace for one being made).
        var unnamedFolderGrace: TimeInterval = 60
    }

    private struct State {
        var local: [String: ExportJob] = [:]
        var queue: [ExportJob] = []
        var running: String?
        var worker: Task<Void, Never>?
        var stopped = false
    }

    let settings: Settings
    let clock: ServerClock
    /// The records every instance shares.
    let store: any BulkExportStore
    private let runner: ExportRun
    private let executor: BlockingExecutor
    private let state = Locked(State())

    /// Exports recorded in `store`, run through `runner` on this instance, timed by `clock`.
    init(settings: Settings, store: any BulkExportStore, runner: ExportRun, executor: BlockingExecutor, clock: ServerClock) {
        self.settings = settings; self.store = store; self.runner = runner; self.executor = executor; self.clock = clock
    }

    /// Why a kick-off was not queued.
    enum Refusal: Error { case full, stopped }

    /// The folder of the export `id`'s files.
    func folder(of id: String) -> URL { settings.directory.appendingPathComponent(id, isDirectory: true) }

    /// The status URL of the export `id` under the FHIR base `base` (the kick-off's `Content-Location`).
    static func statusURL(base: String, id: String) -> String { "\(base)/\(routeSegment)/\(id)" }

    /// Records an export of `patients` for `principal`, makes its folder (0700) and queues it here, starting the worker
    /// when idle.
    func submit(principal: Principal, patients: [String], types: Set<SampleType>?, since: ExportSince,
                fromStart: Set<String> = [], members: Int64? = nil,
                request: String, base: String, auditPatient: String?) async throws -> ExportJob {
        let id = UUID().uuidString.lowercased()
        let directory = folder(of: id)
        let job = ExportJob(id: id, principal: principal, patients: patients, auditPatient: auditPatient, types: types, since: since,
                            fromStart: fromStart, members: members, request: request, base: base, directory: directory, created: clock.now())
        try state.withLock { s in
            guard !s.stopped else { throw Refusal.stopped }
            guard s.local.count < settings.maxUnfinished else { throw Refusal.full }
            s.local[id] = job
        }
        do {
            let store = self.store, settings = self.settings, record = job.record(.queued, now: job.created)
            try await executor.run {
                try store.insertExport(record, patients: patients)
                try FileManager.default.createDirectory(at: settings.directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false,
                                                        attributes: [.posixPermissions: 0o700])
            }
        } catch {
            state.withLock { _ = $0.local.removeValue(forKey: id) }
            _ = try? await executor.run { [store] in try store.deleteExport(id: id) }
            throw error
        }
        state.withLock { s in
            s.queue.append(job)
            if s.worker == nil { s.worker = Task { await self.drain() } }
        }
        return job
    }

    /// The export `id` if `principal` started it and it has not expired at `now`; nil otherwise (answered 404). A queued
    /// or running export whose instance stopped beating `staleAfter` ago is answered, and recorded, as failed.
    func export(_ id: String, for principal: Principal, now: Date) async throws -> BulkExportRecord? {
        let store = self.store
        guard var record = try await executor.run({ try store.export(id: id) }), record.ownerTokenID == principal.tokenID else { return nil }
        if let expiresAt = record.expiresAt, expiresAt <= now { return nil }
        if !record.isFinished, record.heartbeatAt.addingTimeInterval(settings.staleAfter) <= now {
            // Its instance was lost: fail it now rather than at the next sweep.
            guard let failed = try await executor.run({ try self.failLost(now: now); return try store.export(id: id) }) else { return nil }
            record = failed
        }
        return record
    }

    /// Forgets `record`'s export, stops its run at the next page wherever it runs and removes its files (at once unless
    /// this instance is writing them: the run removes them when it stops).
    func cancel(_ record: BulkExportRecord) async throws {
        let store = self.store, id = record.id
        _ = try await executor.run { try store.deleteExport(id: id) }
        let runningHere = state.withLock { s -> Bool in
            guard let job = s.local[id] else { return false }
            job.cancel()
            s.queue.removeAll { $0 === job }
            if s.running == id { return true }
            s.local[id] = nil
            return false
        }
        if !runningHere { Self.remove(folder(of: id)) }
    }

    /// Marks failed, answering 500 `exception` until they expire, the queued and running exports no instance beat for
    /// `staleAfter` before `now` (their instance was lost). Blocking.
    private func failLost(now: Date) throws {
        _ = try store.failLostExports(beatenBefore: now.addingTimeInterval(-settings.staleAfter), outcome: Self.lostInstance,
                                      expiresAt: now.addingTimeInterval(settings.expiry), at: now)
    }

    /// What a lost instance's export answers: 500 `exception`.
    static let lostInstance = ExportFailure(FHIRError(status: .internalServerError, issue: "exception",
                                                      diagnostics: "The export stopped with the server running it; start it again.")).encoded

    /// Beats for this instance's unfinished exports, marks failed the ones no instance beat for `staleAfter` (so they
    /// expire, whether or not anyone polls them), forgets the exports expired at `now` and removes their files, and
    /// removes folders no export names (cancelled on an instance that could not remove them, or erased) once last
    /// changed `unnamedFolderGrace` before `now`. Answers how many folders went. Blocking.
    @discardableResult
    func sweep(now: Date) throws -> Int {
        let local = state.withLock { Array($0.local.keys) }
        if !local.isEmpty { try store.beatExports(local, at: now) }
        try failLost(now: now)
        let expired = try store.deleteExpiredExports(at: now)
        for id in expired { Self.remove(folder(of: id)) }
        let known = try store.exportIDs()
        let fm = FileManager.default
        let names = (try? fm.contentsOfDirectory(atPath: settings.directory.path)) ?? []
        var unnamed = 0
        for name in names where !known.contains(name) && !local.contains(name) && UUID(uuidString: name) != nil && name == name.lowercased() {
            let url = settings.directory.appendingPathComponent(name, isDirectory: true)
            guard let changed = (try? fm.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date,
                  changed.addingTimeInterval(settings.unnamedFolderGrace) <= now else { continue }
            Self.remove(url)
            unnamed += 1
        }
        return expired.count + unnamed
    }

    /// After an erasure: cancels this instance's runs that read `patient` (their records went with the erasure; nil: an
    /// unknown patient, whose runs stop at their next page) and sweeps. Blocking.
    func forget(patient: String?, now: Date) throws {
        let jobs = state.withLock { s in s.local.values.filter { job in patient.map(job.patients.contains) ?? false } }
        for job in jobs { job.cancel() }
        try sweep(now: now)
    }

    /// Stops: cancels this instance's queued and running exports (their records and files go; a status URL then
    /// answers 404) and waits for the run under way. Finished exports stay for any instance until they expire. Later
    /// kick-offs are refused.
    func stop() async {
        let (jobs, worker) = state.withLock { s -> ([ExportJob], Task<Void, Never>?) in
            s.stopped = true
            let all = Array(s.local.values)
            s.queue = []
            for job in all { job.cancel() }
            return (all, s.worker)
        }
        await worker?.value
        let store = self.store
        for job in jobs {
            _ = try? await executor.run { try store.deleteExport(id: job.id) }
            Self.remove(job.directory)
        }
        state.withLock { $0.local = [:] }
    }

    /// Runs queued jobs in order until none is left.
    private func drain() async {
        while let job = state.withLock({ s -> ExportJob? in
            guard !s.queue.isEmpty else { s.worker = nil; s.running = nil; return nil }
            let next = s.queue.removeFirst()
            s.running = next.id
            return next
        }) {
            await runner.run(job)
            state.withLock { s in
                s.running = nil
                s.local[job.id] = nil
            }
        }
    }

    /// Removes a job's folder and its files, if any.
    static func remove(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
