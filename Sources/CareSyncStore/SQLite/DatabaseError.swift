import CSQLite

/// An SQLite failure: the result code, SQLite's message, and the SQL that failed (when there was one).
///
/// Match codes in `catch`: `catch let error as DatabaseError where error.code == .constraint`.
public struct DatabaseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A primary SQLite result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, …).
    public struct Code: RawRepresentable, Hashable, Sendable {
        /// The primary result code value.
        public let rawValue: Int32
        /// Wraps a primary result code.
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// `SQLITE_ERROR`: generic error (syntax, missing table…).
        public static let error = Code(rawValue: SQLITE_ERROR)
        /// `SQLITE_BUSY`: another connection holds the lock past the busy timeout.
        public static let busy = Code(rawValue: SQLITE_BUSY)
        /// `SQLITE_LOCKED`: a conflict inside one connection.
        public static let locked = Code(rawValue: SQLITE_LOCKED)
        /// `SQLITE_READONLY`: a write on a read-only connection.
        public static let readOnly = Code(rawValue: SQLITE_READONLY)
        /// `SQLITE_CONSTRAINT`: a UNIQUE, NOT NULL, CHECK or foreign key constraint failed.
        public static let constraint = Code(rawValue: SQLITE_CONSTRAINT)
        /// `SQLITE_CORRUPT`: the database file is malformed.
        public static let corrupt = Code(rawValue: SQLITE_CORRUPT)
        /// `SQLITE_CANTOPEN`: the file could not be opened.
        public static let cantOpen = Code(rawValue: SQLITE_CANTOPEN)
        /// `SQLITE_MISUSE`: the API was used wrongly.
        public static let misuse = Code(rawValue: SQLITE_MISUSE)
    }

    /// The extended result code as SQLite returned it (e.g. `SQLITE_CONSTRAINT_UNIQUE`).
    public let extendedCode: Int32
    /// SQLite's error message.
    public let message: String
    /// The SQL being run, if any.
    public let sql: String?

    /// The primary result code (the low byte of the extended code).
    public var code: Code { Code(rawValue: extendedCode & 0xFF) }

    /// Makes an error from a result code, a message and the SQL.
    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.extendedCode = extendedCode; self.message = message; self.sql = sql
    }

    /// Reads the current error of a connection handle.
    init(handle: OpaquePointer?, resultCode: Int32, sql: String?) {
        let extended = handle.map { sqlite3_extended_errcode($0) } ?? resultCode
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(resultCode))
        // The handle's error may be stale if the call failed before touching it; trust resultCode's class.
        let code = (extended & 0xFF) == (resultCode & 0xFF) ? extended : resultCode
        self.init(extendedCode: code, message: message, sql: sql)
    }

    /// `SQLite error 19 (constraint): UNIQUE constraint failed: … — while running: INSERT …`.
    public var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let sql { text += " — while running: \(sql)" }
        return text
    }
}
