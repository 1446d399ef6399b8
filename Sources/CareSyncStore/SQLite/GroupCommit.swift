import Dispatch
import Foundation

/// Group commit: concurrent `Database.write` calls that arrive while a commit is under way share the
/// next transaction and its one `COMMIT` (one `fsync` under `synchronous=FULL`), each inside a savepoint
/// of its own, so one body that throws rolls back alone.
///
/// Leader and followers: the caller that finds no commit under way leads; it takes every queued job,
/// runs them and commits; followers sleep until their job is done or they are handed the lead. A caller
/// returns only after the commit that holds its work returned, so "returned" still means "committed".
final class GroupCommit: @unchecked Sendable {
    // @unchecked: `queue` and `leading` are only touched under `lock`; a job's fields are written by the
    // thread running it before `wake.signal()` and read by its caller after `wake.wait()`.

    /// One caller's write: its body, and what became of it.
    final class Job {
        /// Cleared once run: the caller's closure must not outlive its `write` call.
        var body: ((Connection) throws -> Void)?
        var error: (any Error)?
        var finished = false
        var leads = false
        let wake = DispatchSemaphore(value: 0)
        init(_ body: @escaping (Connection) throws -> Void) { self.body = body }
    }

    private let lock = NSLock()
    private var queue: [Job] = []
    private var leading = false
    private let commits = ManagedAtomicCounter()

    /// Transactions committed so far (each may hold many callers' writes).
    var committedTransactions: Int { commits.value }

    /// Jobs waiting for the next group (tests use it to line callers up).
    var queuedJobs: Int { lock.withLock { queue.count } }

    /// Queues `job` and returns once it is finished; `run` executes one group (on the leader's thread).
    func perform(_ job: Job, run: ([Job]) -> Void) {
        lock.lock()
        queue.append(job)
        if leading {
            lock.unlock()
            job.wake.wait()
        } else {
            leading = true
            job.leads = true
            lock.unlock()
        }
        guard job.leads, !job.finished else { return }
        let group = lock.withLock { () -> [Job] in let g = queue; queue = []; return g }
        run(group)
        for member in group { member.body = nil }
        for other in group where other !== job { other.wake.signal() }
        lock.lock()
        if let next = queue.first {
            next.leads = true
            lock.unlock()
            next.wake.signal()
        } else {
            leading = false
            lock.unlock()
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
                commits.increment()
            } catch {
                db.rollbackQuietly()
                for job in held { job.error = error }
            }
            for job in held { job.finished = true }
        }
    }
}

/// A counter read from any thread.
final class ManagedAtomicCounter: @unchecked Sendable {
    // @unchecked: `count` is only touched under `lock`.
    private let lock = NSLock()
    private var count = 0
    /// Adds one.
    func increment() { lock.withLock { count += 1 } }
    /// The current count.
    var value: Int { lock.withLock { count } }
}
