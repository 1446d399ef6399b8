import CareSyncStoreCore

/// The store core's group commit in PostgreSQL's dialect: `BEGIN` (READ COMMITTED), a savepoint per job when
/// the group holds several, `COMMIT`; a lost race, a broken connection or a read-only server retries the group.
extension PostgresConnection: WriteConnection {
    /// `BEGIN`: the session's READ COMMITTED.
    public func beginGroup() throws {
        queued = []  // nothing of an abandoned transaction goes to the next one
        transactionState = nil
        try execute("BEGIN")
    }

    /// A job alone runs bare, and what it sent ahead goes with the `COMMIT`; with others, in `SAVEPOINT caresync_job`,
    /// and what it sent ahead goes with the `RELEASE`, so its errors stay its own. A body that caught a statement's
    /// error and went on left a failed transaction: it is reported, and its savepoint rolled back.
    public func runJob(alone: Bool, _ body: () throws -> Void) throws {
        if alone {
            do {
                try body()
                if transactionFailed { throw Self.caughtFailure }
            } catch {
                endJob(kept: false)
                throw error
            }
            endJob(kept: true)
            return
        }
        try send(Self.savepoint)
        do {
            try body()
            if transactionFailed { throw Self.caughtFailure }
            try query("RELEASE SAVEPOINT caresync_job")  // with what the job sent ahead
            endJob(kept: true)
        } catch let error as PostgresError where error.isTransient || error.needsNewConnection {
            endJob(kept: false)
            throw error
        } catch {
            endJob(kept: false)
            // What the job queued is dropped, not sent; with its SAVEPOINT still queued nothing of it reached the server.
            let reachedServer = queued.first?.sql != Self.savepoint
            queued = []
            if reachedServer {
                try execute("ROLLBACK TO SAVEPOINT caresync_job")
                try execute("RELEASE SAVEPOINT caresync_job")
            }
            throw error
        }
    }

    /// What the kept jobs left for the commit (`transactionState`), then `COMMIT`, sent together; a connection lost
    /// while they were in flight is `.commitOutcomeUnknown`, never retried.
    public func commitGroup() throws {
        defer { transactionState = nil }
        try transactionState?.beforeCommit(self)
        try commit()
    }

    /// `ROLLBACK`, unless the connection broke.
    public func rollbackGroup() { rollbackQuietly() }

    /// Whether the open transaction failed.
    public var mustRollBack: Bool { transactionFailed }

    /// A lost race (`40001`, `40P01`) retries on the same connection; a lost connection or a read-only server
    /// (`25006`) on a new one; anything else is the job's.
    public static func writeFailure(_ error: any Error) -> WriteFailure {
        guard let error = error as? PostgresError else { return .job }
        if error.needsNewConnection { return .retry(reconnect: true) }
        return error.isTransient ? .retry(reconnect: false) : .job
    }

    /// Tells the transaction's state a job ended; a state that does not outlive the job is dropped.
    private func endJob(kept: Bool) {
        if transactionState?.jobEnded(kept: kept) == false { transactionState = nil }
    }

    /// The savepoint of a job that shares its transaction.
    private static let savepoint = "SAVEPOINT caresync_job"

    /// A body caught a statement's error and went on: its transaction (or savepoint) can only roll back.
    private static let caughtFailure = PostgresError(kind: .other, message: "a statement failed inside the write; it was rolled back")
}

/// What a write transaction's jobs leave for its commit (`PostgresWriteGroup`), kept on its connection until it ends.
protocol PostgresTransactionState: AnyObject {
    /// A job of the transaction ended: kept (it ran alone, or its savepoint was released) or rolled back. Returns
    /// whether the state outlives it (false: the connection drops it).
    func jobEnded(kept: Bool) -> Bool
    /// Runs in the transaction just before its `COMMIT`.
    func beforeCommit(_ db: PostgresConnection) throws
}
