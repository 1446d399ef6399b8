import Dispatch
import Foundation
import Synchronization

/// Group commit on PostgreSQL: writes that arrive while a transaction is under way share the next one and
/// its single `COMMIT` (one WAL flush, and one turn at the store's lock: docs/store.md), each inside a
/// savepoint of its own, so one body that throws rolls back alone.
///
/// One serial queue owns the writer connection and drains the queued jobs group by group. A group that
/// loses a race (serialization failure, deadlock), finds the connection broken, or finds the server read-only
/// (a standby after a failover) before `COMMIT` is rolled back and run again on a new connection, every job
/// in it; a connection lost during `COMMIT` fails the group with
/// `.commitOutcomeUnknown` (never acknowledged). A job is reported done only after its `COMMIT` returned.
final class PostgresGroupCommit: @unchecked Sendable {
    // @unchecked: the queue is only touched under its mutex; `connection` and the jobs' fields only on
    // `writerQueue` (a blocking caller reads its job after being woken).

    /// One caller's write: its body, and what became of it.
    /// @unchecked: its fields are written on the writer queue before it is reported done, and read by its
    /// caller after that; the semaphore or the completion orders the hand-over.
    final class Job: @unchecked Sendable {
        var body: ((PostgresConnection) throws -> Void)?
        var error: (any Error)?
        /// A blocking caller sleeps on this; nil for an asynchronous one.
        let wake: DispatchSemaphore?
        /// Called once the job is done, for an asynchronous caller.
        let completion: ((any Error)?) -> Void

        init(body: @escaping (PostgresConnection) throws -> Void, wake: DispatchSemaphore?,
             completion: @escaping ((any Error)?) -> Void) {
            self.body = body; self.wake = wake; self.completion = completion
        }
    }

    private let state = Mutex<(queue: [Job], draining: Bool)>(([], false))
    private let writerQueue = DispatchQueue(label: "caresync.postgres.writer")
    private let writerKey = DispatchSpecificKey<Bool>()
    private var connection: PostgresConnection?
    private let open: () throws -> PostgresConnection
    private let retries: Int
    private let commits = Atomic<Int>(0)

    /// Groups run on a connection from `open` (reopened when it breaks); a lost race is retried `retries` times.
    init(retries: Int, open: @escaping () throws -> PostgresConnection) {
        self.retries = retries
        self.open = open
        writerQueue.setSpecific(key: writerKey, value: true)
    }

    /// Transactions committed so far (each may hold many callers' writes).
    var committedTransactions: Int { commits.load(ordering: .relaxed) }

    /// Jobs waiting for the next group.
    var queuedJobs: Int { state.withLock { $0.queue.count } }

    /// Queues `body` and returns once the transaction holding it committed (or throws its error).
    func perform(_ body: @escaping (PostgresConnection) throws -> Void) throws {
        precondition(DispatchQueue.getSpecific(key: writerKey) == nil, "PostgresDatabase.write called inside write: deadlock")
        let job = Job(body: body, wake: DispatchSemaphore(value: 0), completion: { _ in })
        enqueue(job)
        job.wake?.wait()
        if let error = job.error { throw error }
    }

    /// Queues `body`; `completion` runs after the transaction holding it committed, with its error if any.
    func submit(_ body: @escaping (PostgresConnection) throws -> Void, completion: @escaping ((any Error)?) -> Void) {
        enqueue(Job(body: body, wake: nil, completion: completion))
    }

    private func enqueue(_ job: Job) {
        let start = state.withLock { state -> Bool in
            state.queue.append(job)
            defer { state.draining = true }
            return !state.draining
        }
        if start { writerQueue.async { self.drain() } }
    }

    /// Runs groups until no job waits.
    private func drain() {
        while true {
            let group = state.withLock { state -> [Job] in
                let group = state.queue
                state.queue = []
                if group.isEmpty { state.draining = false }
                return group
            }
            guard !group.isEmpty else { return }
            run(group)
            for job in group {
                job.body = nil
                if let wake = job.wake { wake.signal() } else { job.completion(job.error) }
            }
        }
    }

    /// Runs `group` in one transaction, again from the start after a lost race or a broken connection.
    private func run(_ group: [Job]) {
        var attempt = 0
        while true {
            do {
                try runOnce(group)
                return
            } catch let error as PostgresError where (error.isTransient || error.needsNewConnection) && attempt < retries {
                attempt += 1
                discardIfBroken(force: error.kind == .readOnly)
                usleep(UInt32.random(in: 500...2_000) * UInt32(attempt))  // lets the winner of the race finish
            } catch {
                discardIfBroken(force: (error as? PostgresError)?.kind == .readOnly)
                for job in group where job.error == nil { job.error = error }
                return
            }
        }
    }

    /// One attempt: `BEGIN`, each job (in a savepoint when there are several), `COMMIT`. A job's own error
    /// stays with it; an error that dooms the transaction is thrown for `run` to decide.
    private func runOnce(_ group: [Job]) throws {
        for job in group { job.error = nil }
        if connection?.isBroken == true { connection = nil }  // e.g. lost inside a body that wrapped the error
        let db = try connection ?? open()
        connection = db
        try db.execute("BEGIN")
        var held = 0
        for job in group {
            do {
                if group.count == 1 {
                    try job.body?(db)
                    if db.transactionFailed { throw Self.caughtFailure }
                } else {
                    try savepoint(db) { try job.body?(db) }
                }
                held += 1
            } catch let error as PostgresError where error.isTransient || error.needsNewConnection {
                throw error
            } catch {
                job.error = error
            }
        }
        if held == 0 || db.transactionFailed {
            db.rollbackQuietly()
            return
        }
        try db.commit()
        commits.add(1, ordering: .relaxed)
    }

    /// Runs `body` in a savepoint that rolls back alone when it throws.
    private func savepoint(_ db: PostgresConnection, _ body: () throws -> Void) throws {
        try db.execute("SAVEPOINT caresync_job")
        do {
            try body()
            if db.transactionFailed { throw Self.caughtFailure }
            try db.execute("RELEASE SAVEPOINT caresync_job")
        } catch let error as PostgresError where error.isTransient || error.needsNewConnection {
            throw error
        } catch {
            try db.execute("ROLLBACK TO SAVEPOINT caresync_job")
            try db.execute("RELEASE SAVEPOINT caresync_job")
            throw error
        }
    }

    /// A body caught a statement's error and went on: its transaction (or savepoint) can only roll back.
    private static let caughtFailure = PostgresError(kind: .other, message: "a statement failed inside the write; it was rolled back")

    /// Drops the writer connection when it broke (or `force`: it reaches a read-only server).
    private func discardIfBroken(force: Bool = false) {
        guard let db = connection else { return }
        db.rollbackQuietly()
        if force || db.isBroken || db.isInTransaction { connection = nil }
    }
}
