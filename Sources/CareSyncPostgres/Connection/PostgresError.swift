/// A PostgreSQL failure: what kind it is, the SQLSTATE, the server's message and the SQL that failed.
///
/// Match kinds in `catch`: `catch let error as PostgresError where error.kind == .uniqueViolation`.
public struct PostgresError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The failures callers act on; everything else is `.other` (look at `sqlState`).
    public enum Kind: Hashable, Sendable {
        /// The connection could not be opened (bad URL, server down, authentication refused).
        case connectionFailed
        /// The connection broke during a call (server gone, network cut, administrator shutdown):
        /// whether a `COMMIT` in flight took effect is unknown.
        case connectionLost
        /// The connection broke while `COMMIT` was in flight: the transaction may or may not have committed,
        /// so the write must not be acknowledged (a retry with the same Idempotency-Key finds out).
        case commitOutcomeUnknown
        /// 40001: a SERIALIZABLE or REPEATABLE READ transaction lost a race; run it again.
        case serializationFailure
        /// 40P01: the server broke a lock cycle by aborting this transaction; run it again.
        case deadlockDetected
        /// 23505: a UNIQUE or PRIMARY KEY constraint (`constraint` names it).
        case uniqueViolation
        /// 25006: a write reached a read-only server (a standby, or a primary being demoted).
        case readOnly
        /// 57014: `statement_timeout` or a cancel ended the statement.
        case queryCanceled
        /// Any other error; `sqlState` says which.
        case other
    }

    /// What kind of failure.
    public let kind: Kind
    /// The five-character SQLSTATE, when the server sent one.
    public let sqlState: String?
    /// The server's (or libpq's) message.
    public let message: String
    /// The server's DETAIL line, if any.
    public let detail: String?
    /// The constraint that failed, if any.
    public let constraint: String?
    /// The SQL being run, if any.
    public let sql: String?

    /// An error of `kind`.
    public init(kind: Kind, sqlState: String? = nil, message: String, detail: String? = nil, constraint: String? = nil,
                sql: String? = nil) {
        self.kind = kind; self.sqlState = sqlState; self.message = message
        self.detail = detail; self.constraint = constraint; self.sql = sql
    }

    /// Whether running the whole transaction again may succeed (a lost race, not a bad statement).
    public var isTransient: Bool { kind == .serializationFailure || kind == .deadlockDetected }

    /// The kind a SQLSTATE stands for.
    static func kind(sqlState: String?) -> Kind {
        switch sqlState {
        case "40001": .serializationFailure
        case "40P01": .deadlockDetected
        case "23505": .uniqueViolation
        case "25006": .readOnly
        case "57014": .queryCanceled
        // Class 08 (connection exception), 57P01–57P03 (shutdown, crash, cannot connect now).
        case let state? where state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state): .connectionLost
        default: .other
        }
    }

    /// `PostgreSQL 23505 (uniqueViolation): duplicate key … — while running: INSERT …`.
    public var description: String {
        var text = "PostgreSQL \(sqlState ?? "error") (\(kind)): \(message)"
        if let detail { text += " (\(detail))" }
        if let sql { text += " — while running: \(sql)" }
        return text
    }
}
