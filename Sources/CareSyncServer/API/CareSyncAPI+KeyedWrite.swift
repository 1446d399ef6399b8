import CareSyncCore
import CareSyncStore
import Crypto

extension CareSyncAPI {
    /// A write and its rendering. On SQLite, a request with an `Idempotency-Key` runs the write and records
    /// its answer in ONE transaction, so a crash can never leave a committed write without its answer (a
    /// retry would otherwise run it again) and two concurrent retries cannot both run it. Other stores go
    /// through `idempotent(_:principal:_:)`. `committed` runs once, after a write that really happened.
    /// When the access store shares the database, the write's audit record (`audit`, `count` items) is
    /// inserted in the same transaction, so a stored write always has its record and costs no extra commit.
    func keyedWrite<T: Sendable>(
        _ request: APIRequest, principal: Principal, operation: String, audit auditScope: AuditScope, count: Int,
        write: @escaping @Sendable (any SyncStore) throws -> T,
        writer: @escaping @Sendable (SyncWriter) throws -> T,
        render: @escaping @Sendable (T) -> APIReply,
        committed: (T) -> Void
    ) async throws -> APIReply {
        let store = self.store
        guard let sqlite = store as? SQLiteSyncStore else {
            return try await idempotent(request, principal: principal) {
                let value = try await timedWrite(operation) { try write(store) }
                committed(value)
                return render(value)
            }
        }
        let auditInWrite = (access as? SQLiteAccessStore)?.database === sqlite.database
        let now = clock(), logger = self.logger
        /// Inserts the record of a write that is about to commit, answered with `status`.
        let auditWrite: @Sendable (SyncWriter, Int) throws -> Void = { w, status in
            guard auditInWrite else { return }
            let record = auditScope.record(count: count, status: status, time: now)
            do {
                try SQLiteAccessStore.insertAudit([record], into: w.db)
            } catch {
                throw AuditLog.unrecorded(record, error, logger: logger)
            }
        }
        guard let key = request.header("Idempotency-Key") else {
            let (value, reply) = try await timedAsyncWrite(operation) {
                try await sqlite.asyncWrite { w in
                    let value = try writer(w)
                    let reply = render(value)
                    try auditWrite(w, reply.status)
                    return (value, reply)
                }
            }
            if auditInWrite { auditScope.markStored() }
            committed(value)
            return reply
        }
        guard !key.isEmpty, key.utf8.count <= 255 else {
            throw APIError.invalidParameter("Idempotency-Key", "must be 1–255 characters")
        }
        let hash = Self.requestHash(request)
        let scope = IdempotencyKey(scope: principal.tokenID, key: key)
        let lifetime = limits.idempotencyRetention
        let result = try await timedAsyncWrite(operation) {
            try await sqlite.asyncIdempotentWrite(key: scope, requestHash: hash, now: now, lifetime: lifetime) { w in
                let value = try writer(w)
                let reply = render(value)
                try auditWrite(w, reply.status)
                return (value: (value, reply), status: reply.status, response: reply.body)
            }
        }
        switch result {
        case .performed(let (value, reply)):
            if auditInWrite { auditScope.markStored() }
            committed(value)
            return reply
        case .replayed(let record):
            return try Self.replay(IdempotentReply(requestHash: record.requestHash, status: record.status,
                                                   body: record.response, expiresAt: record.expiresAt), requestHash: hash)
        case .keyReused:
            return try Self.replay(IdempotentReply(requestHash: [], status: 0, body: [], expiresAt: now), requestHash: hash)
        }
    }

    /// SHA-256 of method, path and body: what makes two requests with one key "the same request".
    static func requestHash(_ request: APIRequest) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: Array("\(request.method) \(request.path)\n".utf8))
        hasher.update(data: request.body)
        return Array(hasher.finalize())
    }
}
