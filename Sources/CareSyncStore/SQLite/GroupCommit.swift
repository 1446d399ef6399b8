import Dispatch
import Foundation
import Synchronization

/// Group commit: writes that arrive while a commit is under way share the next transaction and its one
/// `COMMIT` (one `fsync` under `synchronous=FULL`), each inside a savepoint of its own, so one body that
/// throws rolls back alone.
///
/// One leader at a time runs the queued jobs as a group. A blocking caller (`Database.write`) that finds
/// no leader leads itself; one that finds a leader sleeps until its job is done or it is handed the
/// lead. An asynchronous caller (`Database.asyncWrite`) never waits: when nobody leads, a drain on the
/// writer queue does. A job is reported done only after the commit that holds it returned.
final class GroupCommit: @unchecked Sendable {
    // @unchecked: `writer` is only used inside `writerQueue`.

    /// One caller's write: its body, and what became of it.
    /// @unchecked: its fields are written by the thread running it before it is reported done, and read by its
    /// caller after that; the queue's lock orders the hand-over.
    final class Job: @unchecked Sendable {
        /// Cleared once run: the caller's closure must not outlive its `write` call.
        var body: ((Connection) throws -> Void)?
        var error: (any Error)?
        var finished = false
        var leads = false
        /// A blocking caller sleeps on this; nil for an asynchronous one.
        let wake: DispatchSemaphore?
        /// Called once the job is done, for an asynchronous caller.
        let completion: ((any Error)?) -> Void

        /// A job whose caller blocks until it is done.
        init(blocking body: @escaping (Connection) throws -> Void) {
            self.body = body; wake = DispatchSemaphore(value: 0); completion = { _ in }
        }

        /// A job whose caller is told through `completion`.
        init(_ body: @escaping (Connection) throws -> Void, completion: @escaping ((any Error)?) -> Void) {
            self.body = body; wake = nil; self.completion = completion
        }
    }

    /// The jobs waiting for the next group, and whether someone leads.
    private let state = Mutex<(queue: [Job], leading: Bool)>(([], false))
    private let commits = Atomic<Int>(0)
    private let writer: Connection
    private let writerQueue: DispatchQueue
    /// Where a drain for asynchronous jobs runs.
    private let drainQueue = DispatchQueue(label: "caresync.database.group-commit")

    /// Groups run on `writer`, inside `writerQueue` (which keeps them apart from other uses of the connection).
    init(writer: Connection, writerQueue: DispatchQueue) {
        self.writer = writer
        self.writerQueue = writerQueue
    }

    /// Transactions committed so far (each may hold many callers' writes).
    var committedTransactions: Int { commits.load(ordering: .relaxed) }

    /// Jobs waiting for the next group (tests use it to line callers up).
    var queuedJobs: Int { state.withLock { $0.queue.count } }

    /// Queues a blocking job and returns once it is finished.
    func perform(_ job: Job) {
        let follows = state.withLock { state -> Bool in
            state.queue.append(job)
            if state.leading { return true }
            state.leading = true
            job.leads = true
            return false
        }
        if follows { job.wake?.wait() }
        guard job.leads, !job.finished else { return }
        runNextGroup()
        handOff()
    }

    /// Queues an asynchronous job; its completion runs after its group committed.
    func submit(_ job: Job) {
        let leads = state.withLock { state -> Bool in
            state.queue.append(job)
            guard !state.leading else { return false }
            state.leading = true
            return true
        }
        if leads { drainQueue.async { self.drain() } }
    }

    /// Leads until no job waits, or hands the lead to a blocking caller.
    private func drain() {
        while true {
            runNextGroup()
            let next = state.withLock { state -> (done: Bool, wake: DispatchSemaphore?) in
                guard let next = state.queue.first else {
                    state.leading = false
                    return (true, nil)
                }
                guard let wake = next.wake else { return (false, nil) }
                next.leads = true
                return (true, wake)
            }
            guard next.done else { continue }
            next.wake?.signal()
            return
        }
    }

    /// Runs every queued job as one group and reports each done.
    private func runNextGroup() {
        let group = state.withLock { state -> [Job] in defer { state.queue = [] }; return state.queue }
        writerQueue.sync { execute(group, on: writer) }
        for member in group { member.body = nil }
        for member in group {
            if let wake = member.wake {
                if !member.leads { wake.signal() }
            } else {
                member.completion(member.error)
            }
        }
    }

    /// Passes a blocking leader's lead on: to the first queued blocking caller, else to a drain; or gives it up.
    private func handOff() {
        enum Next { case none, blocking(DispatchSemaphore), drain }
        let next = state.withLock { state -> Next in
            guard let next = state.queue.first else {
                state.leading = false
                return .none
            }
            guard let wake = next.wake else { return .drain }
            next.leads = true
            return .blocking(wake)
        }
        switch next {
        case .none: break
        case .blocking(let wake): wake.signal()
        case .drain: drainQueue.async { self.drain() }
        }
    }

    /// Runs `group` on `db`: one transaction for all, a savepoint each; `finished` and `error` set on each job.
    func execute(_ group: [Job], on db: Connection) {
        var next = 0
        while next < group.count {
            var held: [Job] = []
            do {
                try db.execute("BEGIN IMMEDIATE TRANSACTION")
            } catch {
                for job in group[next...] { job.error = error; job.finished = true }
                return
            }
            while next < group.count {
                let job = group[next]
                next += 1
                do {
                    try db.savepoint("caresync_group_item") { try job.body?(db) }
                    held.append(job)
                } catch {
                    job.error = error
                    job.finished = true
                    // SQLite rolled the whole transaction back (I/O error, disk full): the writes held so far
                    // are gone with it, so they fail too; the rest go on in a new transaction.
                    if !db.isInTransaction {
                        for lost in held { lost.error = error; lost.finished = true }
                        held = []
                        break
                    }
                }
            }
            guard db.isInTransaction else { continue }
            do {
                try db.execute("COMMIT TRANSACTION")
                commits.add(1, ordering: .relaxed)
            } catch {
                db.rollbackQuietly()
                for job in held { job.error = error }
            }
            for job in held { job.finished = true }
        }
    }
}
