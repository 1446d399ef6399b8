import Dispatch
import Foundation
import CareSyncCore
import CareSyncLocking
import Synchronization

/// Group commit: writes that arrive while a commit is under way share the next transaction and its one
/// `COMMIT`, each inside a rollback unit of its own (`WriteConnection.runJob`), so one body that throws
/// rolls back alone. The same algorithm serves SQLite and PostgreSQL.
///
/// One leader at a time runs the queued jobs as a group, on the `WriterQueue` that owns the connection. A
/// blocking caller (`write`) that finds no leader leads itself; one that finds a leader sleeps until its job
/// is done or it is handed the lead. An asynchronous caller (`asyncWrite`) never waits: when nobody leads, a
/// drain does. A job is reported done only after the commit that holds it returned. A group whose error
/// `WriteConnection.writeFailure` calls `.retry` is rolled back and run again, up to `retries` times.
public final class GroupCommit<Connection: WriteConnection>: Sendable {
    /// The jobs waiting for the next group, and whether someone leads.
    private let state = Locked<(queue: [Job], leading: Bool)>(([], false))
    private let commits = Atomic<Int>(0)
    /// The queue that owns the connection; groups run on it.
    public let writer: WriterQueue<Connection>
    private let retries: Int
    /// Where a drain for asynchronous jobs runs.
    private let drainQueue: DispatchQueue

    /// Groups run on `writer`'s connection; a group that may succeed again is retried `retries` times.
    public init(writer: WriterQueue<Connection>, retries: Int = 0, label: String = "caresync.group-commit") {
        self.writer = writer
        self.retries = retries
        drainQueue = DispatchQueue(label: label)
    }

    /// Transactions committed so far (each may hold many callers' writes).
    public var committedTransactions: Int { commits.load(ordering: .relaxed) }

    /// Jobs waiting for the next group (tests use it to line callers up).
    public var queuedJobs: Int { state.withLock { $0.queue.count } }

    /// Runs `body` in a write transaction and returns after its `COMMIT`; blocks the calling thread.
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        precondition(!writer.isCurrent, "a write called inside a write: deadlock")
        return try withoutActuallyEscaping(body) { body in
            var result: T?
            let job = Job(wake: DispatchSemaphore(value: 0), completion: nil) { db in result = try body(db) }
            try perform(job)
            guard let result else { preconditionFailure("a finished write job without a result") }
            return result
        }
    }

    /// `write` without blocking a thread: suspends until the commit that holds `body` returned.
    public func asyncWrite<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let result = Outcome<T>()
            let job = Job(wake: nil, completion: { error in
                if let error { continuation.resume(throwing: error); return }
                guard let value = result.value.withLock({ $0 }) else { preconditionFailure("a finished write job without a result") }
                continuation.resume(returning: value)
            }, body: { db in
                let value = try body(db)
                result.value.withLock { $0 = value }
            })
            submit(job)
        }
    }

    /// Queues a blocking job and returns once it is finished (throwing its error).
    private func perform(_ job: Job) throws {
        let leads = state.withLock { state -> Bool in
            state.queue.append(job)
            if state.leading { return false }
            state.leading = true
            return true
        }
        if !leads {
            job.wake?.wait()
            switch job.handOver.withLock({ $0 }) {
            case .done(let error)?:
                if let error { throw error }
                return
            case .lead?: break
            case nil: preconditionFailure("a write woken with nothing handed over")
            }
        }
        let own = runNextGroup(leader: job)
        handOff()
        if let own { throw own }
    }

    /// Queues an asynchronous job; its completion runs after its group committed.
    private func submit(_ job: Job) {
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
            _ = runNextGroup(leader: nil)
            switch nextLeader() {
            case .none: return
            case .drain: continue
            case .blocking(let job): job.hand(.lead); return
            }
        }
    }

    /// Passes a blocking leader's lead on: to the first queued blocking caller, else to a drain; or gives it up.
    private func handOff() {
        switch nextLeader() {
        case .none: break
        case .blocking(let job): job.hand(.lead)
        case .drain: drainQueue.async { self.drain() }
        }
    }

    private enum Next { case none, blocking(Job), drain }

    /// Who leads next: nobody (the lead is given up), the first queued job's blocking caller, or a drain.
    private func nextLeader() -> Next {
        state.withLock { state -> Next in
            guard let next = state.queue.first else {
                state.leading = false
                return .none
            }
            return next.wake == nil ? .drain : .blocking(next)
        }
    }

    /// Runs every queued job as one group and reports each done; returns `leader`'s own error.
    private func runNextGroup(leader: Job?) -> (any Error)? {
        let group = state.withLock { state -> [Job] in defer { state.queue = [] }; return state.queue }
        let results = writer.onQueue { () -> [(any Error)?] in
            let results = execute(group)
            for job in group { job.drop(on: writer) }
            return results
        }
        var own: (any Error)?
        for (job, error) in zip(group, results) {
            if job === leader { own = error } else if job.wake != nil { job.hand(.done(error)) } else { job.completion?(error) }
        }
        return own
    }

    /// Runs `group` on the writer's connection: one transaction for all, again after a failure that may pass;
    /// returns each job's error (nil: committed). On the writer queue.
    private func execute(_ group: [Job]) -> [(any Error)?] {
        var results = [(any Error)?](repeating: nil, count: group.count)
        var start = 0
        var attempt = 0
        while start < group.count {
            for index in start..<group.count { results[index] = nil }
            do {
                start = try transaction(group, from: start, results: &results)
            } catch {
                let failure = Connection.writeFailure(error)
                if case .retry(let reconnect) = failure, attempt < retries {
                    attempt += 1
                    writer.reset(reconnect: reconnect)
                    usleep(UInt32.random(in: 500...2_000) * UInt32(attempt))  // lets the winner of the race finish
                    continue
                }
                if case .retry(let reconnect) = failure { writer.reset(reconnect: reconnect) } else { writer.reset(reconnect: false) }
                for index in start..<group.count where results[index] == nil { results[index] = error }
                return results
            }
        }
        return results
    }

    /// One transaction over `group[start...]`: `BEGIN`, each job, `COMMIT`. A job's own error stays with it;
    /// an error that dooms the whole group is thrown. Returns where the next transaction starts: the end, or
    /// the job after the one during which the database abandoned the transaction (the jobs held so far fail too).
    private func transaction(_ group: [Job], from start: Int, results: inout [(any Error)?]) throws -> Int {
        let db = try writer.current()
        try db.beginGroup()
        var held: [Int] = []
        var lastError: (any Error)?
        let alone = group.count - start == 1
        for index in start..<group.count {
            do {
                try db.runJob(alone: alone) { try group[index].run(db, on: writer) }
                held.append(index)
            } catch {
                if case .retry = Connection.writeFailure(error) { throw error }
                results[index] = error
                lastError = error
                if !db.isInTransaction {
                    for lost in held { results[lost] = error }
                    return index + 1
                }
            }
        }
        if held.isEmpty || db.mustRollBack {
            db.rollbackGroup()
            for index in held { results[index] = lastError ?? GroupRolledBack() }
            return group.count
        }
        try db.commitGroup()
        commits.add(1, ordering: .relaxed)
        return group.count
    }

    /// One caller's write: its body, and how its outcome reaches the caller.
    final class Job: @unchecked Sendable {
        // @unchecked: `body` is run and dropped only on the writer queue (asserted); the outcome crosses threads in `handOver`, a mutex.
        private var body: ((Connection) throws -> Void)?
        /// A blocking caller sleeps on this; nil for an asynchronous one.
        let wake: DispatchSemaphore?
        /// Called once the job is done, for an asynchronous caller.
        let completion: (@Sendable ((any Error)?) -> Void)?
        /// What a blocking caller is woken with: the lead, or its outcome.
        let handOver = Locked<HandOver?>(nil)

        init(wake: DispatchSemaphore?, completion: (@Sendable ((any Error)?) -> Void)?, body: @escaping (Connection) throws -> Void) {
            self.wake = wake; self.completion = completion; self.body = body
        }

        /// Runs the body on `db`; on the writer queue only.
        func run(_ db: Connection, on writer: WriterQueue<Connection>) throws {
            writer.assertCurrent()
            try body?(db)
        }

        /// Drops the body (the caller's closure must not outlive its `write` call); on the writer queue only.
        func drop(on writer: WriterQueue<Connection>) {
            writer.assertCurrent()
            body = nil
        }

        /// Wakes the blocking caller with `value`.
        func hand(_ value: HandOver) {
            handOver.withLock { $0 = value }
            wake?.signal()
        }
    }

    /// What a blocking caller is woken with.
    enum HandOver: Sendable {
        /// It leads the next group.
        case lead
        /// Its job is done: committed (nil) or failed.
        case done((any Error)?)
    }
}

/// A job's value, handed from its body (on the writer queue) to its completion.
private final class Outcome<T: Sendable>: Sendable {
    let value = Locked<T?>(nil)
}

/// A job that ran without error in a transaction that could only roll back.
public struct GroupRolledBack: Error, CustomStringConvertible {
    /// The sentence.
    public var description: String { "the write's transaction failed and was rolled back" }
}
