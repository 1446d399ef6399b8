/// How a transaction takes its locks.
public enum TransactionKind: String, Sendable {
    /// Takes the write lock at `BEGIN`: use for every write, so the lock is never upgraded mid-way (no deadlock).
    case immediate = "IMMEDIATE"
    /// Takes a read snapshot at the first read: use for reads.
    case deferred = "DEFERRED"
}

extension Connection {
    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// Writes use `.immediate` (`BEGIN IMMEDIATE`). Nesting is refused: use `savepoint` inside.
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        precondition(!isInTransaction, "transaction inside a transaction: use savepoint(_:)")
        try executeRepeated("BEGIN \(kind.rawValue) TRANSACTION")
        let result: T
        do {
            result = try body()
        } catch {
            rollbackQuietly()
            throw error
        }
        do {
            try executeRepeated("COMMIT TRANSACTION")
        } catch {
            rollbackQuietly()
            throw error
        }
        return result
    }

    /// Runs `body` inside a savepoint: a nested unit that rolls back alone when it throws.
    public func savepoint<T>(_ name: String = "caresync", _ body: () throws -> T) throws -> T {
        try executeRepeated("SAVEPOINT \(name)")
        do {
            let result = try body()
            try executeRepeated("RELEASE SAVEPOINT \(name)")
            return result
        } catch {
            try? executeRepeated("ROLLBACK TO SAVEPOINT \(name)")  // The original error matters more than this one.
            try? executeRepeated("RELEASE SAVEPOINT \(name)")
            throw error
        }
    }

    /// Rolls back if a transaction is open; a failure here leaves nothing to do but report the first error.
    func rollbackQuietly() {
        guard isInTransaction else { return }
        try? executeRepeated("ROLLBACK TRANSACTION")  // SQLite may have rolled back already (e.g. after SQLITE_FULL).
    }
}
