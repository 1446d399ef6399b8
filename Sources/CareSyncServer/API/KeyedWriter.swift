import CareSyncCore
import CareSyncHTTP
import Crypto
import Foundation
import HTTPTypes
import Logging

/// A write, its rendering and its audit record in ONE store transaction. With an `Idempotency-Key`, the store also
/// looks the key up and records the answer in that transaction: a crash never leaves a committed write without its
/// answer (a retry would otherwise run it again), and two concurrent retries cannot both run it.
struct KeyedWriter: Sendable {
    let store: any SyncStore
    let calls: StoreCalls
    let clock: ServerClock
    let logger: Logger
    /// How long an idempotent answer is kept.
    let retention: TimeInterval

    /// Runs `writer` and `render` in one transaction with the audit record; `committed` runs once, after a write
    /// that really happened (not a replay).
    func write<T: Sendable>(
        _ request: Request, principal: Principal, operation: String, audit auditScope: AuditScope, count: Int,
        writer: @escaping @Sendable (any SyncTransaction) throws -> T,
        render: @escaping @Sendable (T) -> Response,
        committed: (T) -> Void = { _ in }
    ) async throws -> Response {
        let now = clock.now(), logger = self.logger
        var claim: IdempotencyClaim?
        if let key = request.header("Idempotency-Key") {
            guard !key.isEmpty, key.utf8.count <= 255 else {
                throw HTTPError.invalidParameter("Idempotency-Key", "must be 1–255 characters")
            }
            claim = IdempotencyClaim(key: IdempotencyKey(scope: principal.tokenID, key: key), requestHash: Self.requestHash(request),
                                     now: now, lifetime: retention, patient: auditScope.patient)
        }
        let store = self.store
        let result = try await calls.timedWrite(operation) {
            try await store.write(idempotency: claim) { transaction in
                let value = try writer(transaction)
                let reply = render(value)
                let record = auditScope.record(count: count, status: reply.status.code, time: now)
                do {
                    try transaction.appendAudit(record)
                } catch {
                    throw AuditLog.unrecorded(record, error, logger: logger)
                }
                // A write's answer is JSON bytes, never a stream: the whole of it is what a retry replays.
                guard case .bytes(let body) = reply.body else { throw HTTPError.internal }
                return WriteAnswer(value: (value, reply), status: reply.status.code, response: body)
            }
        }
        switch result {
        case .performed(let (value, reply)):
            auditScope.markStored()
            committed(value)
            return reply
        case .replayed(let record):
            return Response.json(record.response, status: .standard(record.status),
                                 headers: [HTTPField.Name("Idempotent-Replayed")!: "true"])
        case .keyReused:
            throw HTTPError.validation([ValidationProblem(index: nil, field: "Idempotency-Key",
                message: "this key was used with a different request body")],
                detail: "The Idempotency-Key was already used for a different request.")
        }
    }

    /// SHA-256 of method, path and body: what makes two requests with one key "the same request".
    static func requestHash(_ request: Request) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: Array("\(request.method.rawValue) \(request.path)\n".utf8))
        hasher.update(data: request.body)
        return Array(hasher.finalize())
    }
}
