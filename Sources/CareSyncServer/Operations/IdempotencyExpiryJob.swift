import CareSyncCore
import Foundation
import Logging

/// The expiry of idempotency records (`limits.idempotencyRetention` after their write): the server runs it hourly,
/// and it purges only on the instance holding the `LeasedJob.idempotencyExpiry` lease.
struct IdempotencyExpiryJob: Sendable {
    /// The store whose records expire.
    let store: any SyncStore
    /// Where a skipped run is logged (at debug).
    let logger: Logger

    /// Forgets the records expired at `now`; returns how many, or nil when another instance holds the lease.
    func runOnce(now: Date) throws -> Int? {
        try store.runLeased(.idempotencyExpiry, logger: logger) { try store.purgeIdempotencyRecords(now: now) }
    }
}
