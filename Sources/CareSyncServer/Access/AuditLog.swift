import CareSyncHTTP
import CareSyncCore
import CareSyncLocking
import Foundation
import Logging

/// Writes audit records durably before the request they describe is answered: an answered access
/// always has its record, even if the process is killed right after. On SQLite the records join the
/// group commit of other writes, so auditing costs a share of a commit, not one of its own.
///
/// One write of records is under way at a time: records that come meanwhile are gathered and written together by
/// the next (one job of the store's group commit for all of them, not one each), so the ten thousand long polls one
/// commit wakes store their records in a few writes. A request that finds no write under way writes its own record
/// at once, on its own task.
public final class AuditLog: Sendable {
    /// Stores records durably in one write (the access store's `commitAudit`).
    private let write: @Sendable ([AuditRecord]) async throws -> Void
    private let logger: Logger
    /// The records waiting for the next write, their requests, and whether a write is under way.
    private let gathering = Locked(Gathering())

    private struct Gathering {
        var records: [AuditRecord] = []
        var waiting: [CheckedContinuation<Void, any Error>] = []
        var writing = false
    }

    /// A log writing to `store`.
    public convenience init(store: any AccessStore, logger: Logger = Logger(label: "caresync.audit")) {
        self.init(logger: logger) { records in try await store.commitAudit(records) }
    }

    /// A log storing its records with `write` (tests watch and fail the writes with it).
    init(logger: Logger = Logger(label: "caresync.audit"), write: @escaping @Sendable ([AuditRecord]) async throws -> Void) {
        self.write = write; self.logger = logger
    }

    /// Stores `record` and returns once it is durable; 503 `unavailable` when it could not be stored.
    public func commit(_ record: AuditRecord) async throws {
        let leads = gathering.withLock { g -> Bool in
            guard !g.writing else { return false }
            g.writing = true
            return true
        }
        guard leads else { return try await gather(record) }
        defer { passOn() }
        do {
            try await write([record])
        } catch {
            throw Self.unrecorded(record, error, logger: logger)
        }
    }

    /// Waits for the next write to store `record` with the others gathered meanwhile.
    private func gather(_ record: AuditRecord) async throws {
        try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
            let starts = gathering.withLock { g -> Bool in
                g.records.append(record)
                g.waiting.append(waiter)
                guard !g.writing else { return false }
                g.writing = true  // the write under way ended in between: nobody else will write these
                return true
            }
            if starts { Task { await self.writeGathered() } }
        }
    }

    /// After a write: the records gathered meanwhile are written by a task of their own, or the log is idle again.
    private func passOn() {
        let more = gathering.withLock { g -> Bool in
            if g.records.isEmpty { g.writing = false }
            return !g.records.isEmpty
        }
        if more { Task { await self.writeGathered() } }
    }

    /// Writes the gathered records, batch after batch, until none is left; answers each waiting request.
    private func writeGathered() async {
        while true {
            let batch = gathering.withLock { g -> ([AuditRecord], [CheckedContinuation<Void, any Error>])? in
                guard !g.records.isEmpty else { g.writing = false; return nil }
                defer { g.records = []; g.waiting = [] }
                return (g.records, g.waiting)
            }
            guard let (records, waiting) = batch else { return }
            do {
                try await write(records)
                for waiter in waiting { waiter.resume() }
            } catch {
                for (record, waiter) in zip(records, waiting) { waiter.resume(throwing: Self.unrecorded(record, error, logger: logger)) }
            }
        }
    }

    /// Logs that `record` could not be stored and gives the 503 `unavailable` that answers its request instead.
    static func unrecorded(_ record: AuditRecord, _ error: any Error, logger: Logger) -> HTTPError {
        logger.error("audit.write_failed", metadata: ["action": "\(record.action)", "error": "\(type(of: error))"])
        return HTTPError.unavailable("The access could not be recorded in the audit log, so it was not answered; retry later.")
    }
}
