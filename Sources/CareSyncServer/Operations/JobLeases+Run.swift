import CareSyncCore
import Logging

extension JobLeases {
    /// Runs `body` when this instance holds `job`'s lease; else skips it (logged at debug) and returns nil.
    func runLeased<T>(_ job: LeasedJob, logger: Logger, _ body: () throws -> T) throws -> T? {
        guard try acquireLease(job) else {
            logger.debug("job.skipped", metadata: ["job.name": .string(job.name), "job.reason": "leaseHeldElsewhere"])
            return nil
        }
        return try body()
    }
}
