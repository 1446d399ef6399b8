import Foundation
import Logging

/// Collects audit records and writes them in batches, so auditing costs one transaction per batch,
/// not one per request. `flush()` writes what is pending; the server flushes before answering an
/// audit query and on shutdown. A crash can lose at most the last `interval` of records.
public final class AuditLog: Sendable {
    private let store: any AccessStore
    private let pending = Locked([AuditRecord]())
    private let flushing = NSLock()
    private let queue = DispatchQueue(label: "caresync.audit")
    private let interval: TimeInterval
    private let logger: Logger
    private let scheduled = Locked(false)

    /// A log writing to `store` at most `interval` seconds after a record arrives.
    public init(store: any AccessStore, interval: TimeInterval = 0.2, logger: Logger = Logger(label: "caresync.audit")) {
        self.store = store; self.interval = interval; self.logger = logger
    }

    /// Queues a record.
    public func record(_ record: AuditRecord) {
        let count = pending.withLock { p in p.append(record); return p.count }
        if count >= 1000 { queue.async { self.flush() }; return }
        let schedule = scheduled.withLock { s in let was = s; s = true; return !was }
        if schedule {
            queue.asyncAfter(deadline: .now() + interval) {
                self.scheduled.withLock { $0 = false }
                self.flush()
            }
        }
    }

    /// Writes every pending record now (blocking).
    public func flush() {
        flushing.lock(); defer { flushing.unlock() }
        let batch = pending.withLock { p in let b = p; p = []; return b }
        guard !batch.isEmpty else { return }
        do {
            try store.appendAudit(batch)
        } catch {
            logger.error("audit.write_failed", metadata: ["records": "\(batch.count)", "error": "\(type(of: error))"])
            pending.withLock { p in p.insert(contentsOf: batch, at: 0) }
        }
    }
}
