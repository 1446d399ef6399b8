import CareSyncHTTP
import CareSyncCore
import Foundation
import Logging

/// Writes audit records durably before the request they describe is answered: an answered access
/// always has its record, even if the process is killed right after. On SQLite the records join the
/// group commit of other writes, so auditing costs a share of a commit, not one of its own.
public final class AuditLog: Sendable {
    private let store: any AccessStore
    private let logger: Logger

    /// A log writing to `store`.
    public init(store: any AccessStore, logger: Logger = Logger(label: "caresync.audit")) {
        self.store = store; self.logger = logger
    }

    /// Stores `record` and returns once it is durable; 503 `unavailable` when it could not be stored.
    public func commit(_ record: AuditRecord) async throws {
        do {
            try await store.commitAudit([record])
        } catch {
            throw Self.unrecorded(record, error, logger: logger)
        }
    }

    /// Logs that `record` could not be stored and gives the 503 `unavailable` that answers its request instead.
    static func unrecorded(_ record: AuditRecord, _ error: any Error, logger: Logger) -> HTTPError {
        logger.error("audit.write_failed", metadata: ["action": "\(record.action)", "error": "\(type(of: error))"])
        return HTTPError.unavailable("The access could not be recorded in the audit log, so it was not answered; retry later.")
    }
}
