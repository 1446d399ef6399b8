import CareSyncStoreCore

/// The store core's group commit in SQLite's dialect: `BEGIN IMMEDIATE`, a savepoint per job, `COMMIT`.
extension Connection: WriteConnection {
    /// `BEGIN IMMEDIATE`: the write lock is taken at once, never upgraded mid-way.
    public func beginGroup() throws { try executeRepeated("BEGIN IMMEDIATE TRANSACTION") }

    /// Every job in a savepoint of its own, even alone.
    public func runJob(alone: Bool, _ body: () throws -> Void) throws { try savepoint("caresync_group_item", body) }

    /// `COMMIT`.
    public func commitGroup() throws { try executeRepeated("COMMIT TRANSACTION") }

    /// `ROLLBACK`, if SQLite has not rolled back already.
    public func rollbackGroup() { rollbackQuietly() }

    /// A SQLite handle does not break: its errors are the statements'.
    public var isBroken: Bool { false }

    /// SQLite ends a transaction it cannot go on with itself (`isInTransaction` turns false).
    public var mustRollBack: Bool { false }

    /// Every SQLite error is its job's (or statement's): nothing is retried.
    public static func writeFailure(_ error: any Error) -> WriteFailure { .job }
}
