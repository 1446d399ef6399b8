import CareSyncStoreCore

/// The store core's group commit in PostgreSQL's dialect: `BEGIN` (READ COMMITTED), a savepoint per job when
/// the group holds several, `COMMIT`; a lost race, a broken connection or a read-only server retries the group.
extension PostgresConnection: WriteConnection {
    /// `BEGIN`: the session's READ COMMITTED.
    public func beginGroup() throws { try execute("BEGIN") }

    /// A job alone runs bare; with others, in `SAVEPOINT caresync_job`. A body that caught a statement's error
    /// and went on left a failed transaction: it is reported, and its savepoint rolled back.
    public func runJob(alone: Bool, _ body: () throws -> Void) throws {
        if alone {
            try body()
            if transactionFailed { throw Self.caughtFailure }
            return
        }
        try execute("SAVEPOINT caresync_job")
        do {
            try body()
            if transactionFailed { throw Self.caughtFailure }
            try execute("RELEASE SAVEPOINT caresync_job")
        } catch let error as PostgresError where error.isTransient || error.needsNewConnection {
            throw error
        } catch {
            try execute("ROLLBACK TO SAVEPOINT caresync_job")
            try execute("RELEASE SAVEPOINT caresync_job")
            throw error
        }
    }

    /// `COMMIT`; a connection lost while it was in flight is `.commitOutcomeUnknown`, never retried.
    public func commitGroup() throws { try commit() }

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

    /// A body caught a statement's error and went on: its transaction (or savepoint) can only roll back.
    private static let caughtFailure = PostgresError(kind: .other, message: "a statement failed inside the write; it was rolled back")
}
