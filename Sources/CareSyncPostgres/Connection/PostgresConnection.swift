import CLibPQ
import Foundation

/// One libpq connection: parameterised queries (prepared once per connection, results in binary),
/// statements sent ahead without waiting for their answers (`send`, in libpq's pipeline mode), plain SQL
/// text, and transactions. Closes in `deinit`.
///
/// Not `Sendable`: a `PGconn` serves one caller at a time. `PostgresDatabase` hands connections out, one
/// closure at a time; never keep one outside that closure.
///
/// ```swift
/// let db = try PostgresConnection(url: "postgresql://caresync@127.0.0.1:5432/caresync")
/// let rows = try db.query("SELECT id, time_zone FROM patients WHERE id = $1", [.text("alice")])
/// let zone = try rows.first { try $0.string(1) }
/// ```
public final class PostgresConnection {
    let handle: OpaquePointer
    /// Prepared statements by text and parameter types, so a repeated query is parsed and planned once.
    private var prepared: [PreparedKey: String] = [:]
    private var nextStatement = 0
    /// Statements sent ahead (`send`) and not yet on the wire: they go with the next statement whose answer is awaited.
    var queued: [QueuedStatement] = []
    /// What the open write transaction's jobs leave for its commit (`PostgresWriteGroup`); dropped when it ends.
    var transactionState: (any PostgresTransactionState)?
    /// Beyond this many prepared statements the cache is dropped (filters make the texts vary).
    private static let statementCacheLimit = 256

    private struct PreparedKey: Hashable {
        let sql: String
        let types: [UInt32]
    }

    /// Settings a URL may override: connecting gives up after 10 s, and a peer that stops answering is
    /// noticed within about 30 s (TCP keepalives), so no call waits forever on a dead server.
    static let defaults = ["connect_timeout": "10", "keepalives_idle": "10", "keepalives_interval": "5", "keepalives_count": "3"]

    /// Opens a connection: `url` is a `postgresql://` URL or a libpq `key=value` string; its own settings
    /// win over `defaults`.
    public init(url: String) throws {
        // Keywords before `dbname` are overridden by what the expanded URL sets (expand_dbname = 1).
        let pairs = Self.defaults.sorted { $0.key < $1.key } + [("dbname", url)]
        let keywords = pairs.map { strdup($0.0) } + [nil], values = pairs.map { strdup($0.1) } + [nil]
        defer { (keywords + values).forEach { free($0) } }
        let connected = keywords.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { k in
            values.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { v in PQconnectdbParams(k.baseAddress, v.baseAddress, 1) }
        }
        guard let handle = connected else {
            throw PostgresError(kind: .connectionFailed, message: "libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.message(handle)
            PQfinish(handle)
            throw PostgresError(kind: .connectionFailed, message: message)
        }
        caresync_pq_silence_notices(handle)
        self.handle = handle
    }

    deinit { PQfinish(handle) }

    /// Whether the connection broke (it is useless; open another).
    public var isBroken: Bool { PQstatus(handle) != CONNECTION_OK }

    /// Whether a transaction is open (idle in it, or failed in it).
    public var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Whether an open transaction failed: it can only roll back.
    var transactionFailed: Bool { PQtransactionStatus(handle) == PQTRANS_INERROR }

    /// The server process serving this connection (`pg_stat_activity.pid`).
    public var backendPID: Int32 { PQbackendPID(handle) }

    /// Runs one statement with `$1`, `$2`… parameters and returns its rows (binary format).
    @discardableResult
    public func query(_ sql: String, _ parameters: [PostgresValue] = []) throws -> PostgresRows {
        let name = try statementName(sql, parameters)
        if !queued.isEmpty { return try sendQueued(then: QueuedStatement(name: name, sql: sql, parameters: parameters)) }
        return try withEncoded(parameters) { count, values, lengths, formats in
            try rows(PQexecPrepared(handle, name, count, values, lengths, formats, 1), sql: sql)
        }
    }

    /// Calls `body` with `parameters` as libpq takes them: their count, values (nil for NULL), lengths and formats.
    func withEncoded<T>(_ parameters: [PostgresValue],
                        _ body: (Int32, [UnsafePointer<CChar>?], [Int32], [Int32]) throws -> T) rethrows -> T {
        var buffer: [UInt8] = []
        var offsets: [Int] = [], lengths: [Int32] = [], formats: [Int32] = []
        for parameter in parameters {
            offsets.append(buffer.count)
            parameter.encode(into: &buffer)
            lengths.append(Int32(buffer.count - offsets.last!))
            formats.append(parameter.format)
        }
        buffer.append(0)  // so the buffer has an address even when every value is empty
        return try buffer.withUnsafeBufferPointer { base in
            let values: [UnsafePointer<CChar>?] = parameters.indices.map { i in
                parameters[i] == .null ? nil : UnsafeRawPointer(base.baseAddress! + offsets[i]).assumingMemoryBound(to: CChar.self)
            }
            return try body(Int32(parameters.count), values, lengths, formats)
        }
    }

    /// Runs SQL text without parameters: one or more statements (the simple protocol, as `psql` sends), after
    /// what was sent ahead.
    public func execute(_ sql: String) throws {
        try flushQueued()
        _ = try rows(PQexec(handle, sql), sql: sql)
    }

    /// Runs `body` in a transaction begun with `begin` (e.g. `BEGIN ISOLATION LEVEL REPEATABLE READ`):
    /// commits when it returns, rolls back when it throws. A transaction that failed inside `body` (an
    /// error it caught) is rolled back and reported, never committed as if nothing happened.
    public func transaction<T>(_ begin: String = "BEGIN", _ body: () throws -> T) throws -> T {
        precondition(!isInTransaction, "transaction inside a transaction")
        try execute(begin)
        let result: T
        do {
            result = try body()
            try flushQueued()
            if transactionFailed {
                throw PostgresError(kind: .other, message: "a statement failed inside the transaction; it was rolled back")
            }
        } catch {
            rollbackQuietly()
            throw error
        }
        try commit()
        return result
    }

    /// Commits the open transaction. A connection lost while `COMMIT` was in flight is
    /// `.commitOutcomeUnknown`: the server may have committed before it went away.
    func commit() throws {
        do {
            try query("COMMIT")
        } catch let error as PostgresError where error.kind == .connectionLost {
            throw PostgresError(kind: .commitOutcomeUnknown, sqlState: error.sqlState, message: error.message, sql: "COMMIT")
        } catch {
            rollbackQuietly()
            throw error
        }
    }

    /// Waits up to `timeout` for notifications of the channels this connection LISTENs on and returns their
    /// payloads (empty when none came). Throws `.connectionLost` when the connection broke.
    public func notifications(waitingUpTo timeout: Duration) throws -> [String] {
        var socket = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        let (seconds, attoseconds) = timeout.components
        _ = poll(&socket, 1, Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000))
        guard PQconsumeInput(handle) == 1, !isBroken else {
            throw PostgresError(kind: .connectionLost, message: Self.message(handle))
        }
        var payloads: [String] = []
        while let notification = PQnotifies(handle) {
            payloads.append(String(cString: notification.pointee.extra))
            PQfreemem(notification)
        }
        return payloads
    }

    /// Rolls back if a transaction is open; on a broken connection there is nothing to roll back.
    func rollbackQuietly() {
        queued = []
        transactionState = nil
        guard !isBroken, isInTransaction else { return }
        try? execute("ROLLBACK")
    }

    func statementName(_ sql: String, _ parameters: [PostgresValue]) throws -> String {
        let key = PreparedKey(sql: sql, types: parameters.map(\.typeOID))
        if let name = prepared[key] { return name }
        if prepared.count >= Self.statementCacheLimit {
            try execute("DEALLOCATE ALL")  // after what was sent ahead, whose names it drops
            prepared = [:]
        }
        nextStatement += 1
        let name = "caresync_\(nextStatement)"
        _ = try rows(PQprepare(handle, name, sql, Int32(key.types.count), key.types), sql: sql)
        prepared[key] = name
        return name
    }

    /// Wraps a result, or turns a failed one into `PostgresError`.
    func rows(_ result: OpaquePointer?, sql: String) throws -> PostgresRows {
        guard let result else {
            throw PostgresError(kind: isBroken ? .connectionLost : .other, message: Self.message(handle), sql: sql)
        }
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY {
            return PostgresRows(result: result)
        }
        defer { PQclear(result) }
        func field(_ code: Character) -> String? {
            PQresultErrorField(result, Int32(code.asciiValue!)).map { String(cString: $0) }
        }
        let state = field("C")
        var kind = PostgresError.kind(sqlState: state)
        if kind == .other && isBroken { kind = .connectionLost }
        let message = field("M") ?? Self.message(handle)
        throw PostgresError(kind: kind, sqlState: state, message: message, detail: field("D"), constraint: field("n"), sql: sql)
    }

    static func message(_ handle: OpaquePointer) -> String {
        String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
