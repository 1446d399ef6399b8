import CLibPQ

/// Statements sent ahead: a write's statements whose rows nobody reads (inserts, upserts, notifications) wait in
/// `queued` and go to the server in one round trip with the next statement whose answer is awaited, in libpq's
/// pipeline mode. Order is kept, so a read sees every write queued before it; the first error among them is thrown
/// by the call that sent them (`query`, `execute`, `flushQueued`, `COMMIT`), and the transaction has failed as it
/// would have at once.
extension PostgresConnection {
    /// A prepared statement and its parameters, waiting to be sent.
    struct QueuedStatement {
        let name: String
        let sql: String
        let parameters: [PostgresValue]
    }

    /// Queues `sql` with `parameters` to be sent with the next awaited statement; its errors are thrown there.
    /// Call it only inside a transaction the caller ends (the queue never outlives it: `COMMIT` sends it, `BEGIN` and
    /// `ROLLBACK` drop it).
    public func send(_ sql: String, _ parameters: [PostgresValue] = []) throws {
        let name = try statementName(sql, parameters)
        queued.append(QueuedStatement(name: name, sql: sql, parameters: parameters))
        // A blocking connection must not send without end while the server's answers pile up unread (libpq's warning
        // about pipeline deadlocks): a long queue goes now.
        if queued.count >= Self.longestPipeline { try flushQueued() }
    }

    /// The most statements sent in one pipeline; their answers (a command tag each) stay far below a socket's buffer.
    static let longestPipeline = 256

    /// Sends what is queued and waits for it; throws the first error among it.
    public func flushQueued() throws {
        if !queued.isEmpty { _ = try sendQueued(then: nil) }
    }

    /// Sends the queue and `last` as one pipeline, waits for every answer, and returns `last`'s rows.
    func sendQueued(then last: QueuedStatement?) throws -> PostgresRows {
        let batch = queued + (last.map { [$0] } ?? [])
        queued = []
        guard PQenterPipelineMode(handle) == 1 else {
            throw PostgresError(kind: isBroken ? .connectionLost : .other, message: Self.message(handle), sql: batch[0].sql)
        }
        defer { PQexitPipelineMode(handle) }
        for statement in batch {
            let sent = withEncoded(statement.parameters) { count, values, lengths, formats in
                PQsendQueryPrepared(handle, statement.name, count, values, lengths, formats, 1)
            }
            guard sent == 1 else { return try abandonPipeline(statement.sql) }
        }
        guard PQpipelineSync(handle) == 1 else { return try abandonPipeline(batch[0].sql) }
        var firstError: (any Error)?
        var answer: PostgresRows?
        for (index, statement) in batch.enumerated() {
            let result = PQgetResult(handle)
            do {
                let rows = try rows(result, sql: statement.sql)
                if index == batch.count - 1 { answer = rows }
            } catch {
                if firstError == nil { firstError = error }
            }
            guard result != nil else { break }  // the connection broke: nothing more comes
            while let extra = PQgetResult(handle) { PQclear(extra) }  // up to the NULL that ends this statement's answer
        }
        while let sync = PQgetResult(handle) {  // PGRES_PIPELINE_SYNC, then NULL
            let status = PQresultStatus(sync)
            PQclear(sync)
            if status == PGRES_PIPELINE_SYNC { break }
        }
        if let firstError { throw firstError }
        guard let answer else { preconditionFailure("a pipeline answered without its last statement's rows") }
        return answer
    }

    /// A pipeline that could not be sent: the connection is unusable for this transaction.
    private func abandonPipeline(_ sql: String) throws -> PostgresRows {
        throw PostgresError(kind: isBroken ? .connectionLost : .other, message: Self.message(handle), sql: sql)
    }
}
