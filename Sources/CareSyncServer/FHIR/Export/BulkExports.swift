import CareSyncCore
import Foundation
import Logging
import CareSyncLocking

/// The bulk exports of this instance, in memory: a status URL is answered only by the instance that started the
/// export (behind a load balancer, route `/fhir/R4/bulk-export/` to it, or run one instance). One export runs at a
/// time, the others wait in order; a job and its files are forgotten `expiry` after it ends (`sweep`, and at once
/// for every request after that time), or when cancelled (docs/fhir.md, "Bulk export").
final class BulkExports: Sendable {
    /// The path segment under the FHIR base of status and file URLs: `/fhir/R4/bulk-export/{jobId}[/{file}]`.
    static let routeSegment = "bulk-export"

    /// Where files go, how long they stay, and the sizes of pages and files.
    struct Settings: Sendable {
        /// The folder holding one folder per export (created 0700).
        var directory: URL
        /// Seconds an export's files and status stay after it ends.
        var expiry: TimeInterval = 3600
        /// Feed items read (and held in memory) per page.
        var pageSize = 1000
        /// Lines per NDJSON file before the next file starts.
        var linesPerFile = 100_000
        /// Exports queued or running at once on this instance; more is 429.
        var maxUnfinished = 16
    }

    private struct State {
        var jobs: [String: ExportJob] = [:]
        var queue: [ExportJob] = []
        var worker: Task<Void, Never>?
        var stopped = false
    }

    let settings: Settings
    let clock: ServerClock
    private let runner: ExportRun
    private let state = Locked(State())

    /// Exports running through `runner`, timed by `clock`.
    init(settings: Settings, runner: ExportRun, clock: ServerClock) {
        self.settings = settings; self.runner = runner; self.clock = clock
    }

    /// Why a kick-off was not queued.
    enum Refusal: Error { case full, stopped }

    /// Queues an export of `patients` for `principal` and starts the worker when idle; makes the job's folder (0700).
    func submit(principal: Principal, patients: [String], types: Set<SampleType>?, since: ExportSince,
                fromStart: Set<String> = [], members: Int64? = nil,
                request: String, base: String, auditPatient: String?) throws -> ExportJob {
        let id = UUID().uuidString.lowercased()
        let directory = settings.directory.appendingPathComponent(id, isDirectory: true)
        let job = ExportJob(id: id, principal: principal, patients: patients, auditPatient: auditPatient, types: types, since: since,
                            fromStart: fromStart, members: members, request: request, base: base, directory: directory, created: clock.now())
        try state.withLock { s in
            guard !s.stopped else { throw Refusal.stopped }
            let unfinished = s.jobs.values.filter { $0.expiresAt == nil }.count
            guard unfinished < settings.maxUnfinished else { throw Refusal.full }
            try FileManager.default.createDirectory(at: settings.directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
            s.jobs[id] = job
            s.queue.append(job)
            if s.worker == nil { s.worker = Task { await self.drain() } }
        }
        return job
    }

    /// The job `id` if `principal` started it and it has not expired at `now`; nil otherwise (answered 404).
    func job(_ id: String, for principal: Principal, now: Date) -> ExportJob? {
        guard let job = state.withLock({ $0.jobs[id] }), job.ownerTokenID == principal.tokenID else { return nil }
        if let expiresAt = job.expiresAt, expiresAt <= now { return nil }
        return job
    }

    /// Forgets `job`, stops its run at the next page and removes its files (at once when it is not running).
    func cancel(_ job: ExportJob) {
        let running = state.withLock { s -> Bool in
            s.jobs[job.id] = nil
            s.queue.removeAll { $0 === job }
            job.cancel()
            if case .running = job.current { return true }
            return false
        }
        if !running { Self.remove(job.directory) }
    }

    /// Forgets the jobs expired at `now` and removes their files, and removes folders a previous process left behind
    /// (named by a job id, not known here, last changed before `now - expiry`). Answers how many folders went.
    @discardableResult
    func sweep(now: Date) -> Int {
        let expired = state.withLock { s -> [ExportJob] in
            let gone = s.jobs.values.filter { $0.expiresAt.map { $0 <= now } ?? false }
            for job in gone { s.jobs[job.id] = nil }
            return gone
        }
        for job in expired { Self.remove(job.directory) }
        let known = state.withLock { Set($0.jobs.keys) }
        let fm = FileManager.default
        let names = (try? fm.contentsOfDirectory(atPath: settings.directory.path)) ?? []
        var leftovers = 0
        for name in names where !known.contains(name) && UUID(uuidString: name) != nil && name == name.lowercased() {
            let url = settings.directory.appendingPathComponent(name, isDirectory: true)
            guard let changed = (try? fm.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date,
                  changed.addingTimeInterval(settings.expiry) <= now else { continue }
            Self.remove(url)
            leftovers += 1
        }
        return expired.count + leftovers
    }

    /// Stops: cancels every job, waits for the run under way, and removes every job's files (status URLs end with
    /// the process). Later kick-offs are refused.
    func stop() async {
        let (jobs, worker) = state.withLock { s -> ([ExportJob], Task<Void, Never>?) in
            s.stopped = true
            let all = Array(s.jobs.values)
            s.jobs = [:]
            s.queue = []
            for job in all { job.cancel() }
            return (all, s.worker)
        }
        await worker?.value
        for job in jobs { Self.remove(job.directory) }
    }

    /// Runs queued jobs in order until none is left.
    private func drain() async {
        while let job = state.withLock({ s -> ExportJob? in
            guard !s.queue.isEmpty else { s.worker = nil; return nil }
            return s.queue.removeFirst()
        }) {
            await runner.run(job)
        }
    }

    /// Removes a job's folder and its files, if any.
    static func remove(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
