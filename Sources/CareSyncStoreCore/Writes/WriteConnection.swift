/// A connection a group commit writes on: one transaction per group, one rollback unit (a savepoint) per job.
///
/// Each backend conforms with its own SQL: SQLite `BEGIN IMMEDIATE` and a savepoint per job; PostgreSQL
/// `BEGIN` (READ COMMITTED) and a savepoint per job when the group holds more than one.
public protocol WriteConnection: AnyObject, SendableMetatype {
    /// Opens the group's write transaction.
    func beginGroup() throws
    /// Runs one job so that, when it throws, only its own work is undone; `alone` when it is the group's only job.
    func runJob(alone: Bool, _ body: () throws -> Void) throws
    /// Commits the group's transaction.
    func commitGroup() throws
    /// Rolls back the open transaction, if any, and reports nothing (the first error is the one that matters).
    func rollbackGroup()
    /// Whether a transaction is open (SQLite closes it itself after an I/O error or a full disk).
    var isInTransaction: Bool { get }
    /// Whether the connection can no longer be used and must be replaced.
    var isBroken: Bool { get }
    /// Whether the open transaction failed and can only roll back.
    var mustRollBack: Bool { get }
    /// What an error thrown by a job or by the group's own statements means for the group.
    static func writeFailure(_ error: any Error) -> WriteFailure
}

/// What an error means for the group of writes it happened in.
public enum WriteFailure: Sendable, Equatable {
    /// It belongs to the job (or statement) that threw: the job fails alone, the others go on.
    case job
    /// The whole group may succeed if run again from `BEGIN`: a lost race, or (`reconnect`) on a new connection.
    case retry(reconnect: Bool)
}
