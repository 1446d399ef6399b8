import Foundation
import Logging

/// The process's limit on open file descriptors (`RLIMIT_NOFILE`), which caps connections: many
/// systems start services with a soft limit of 1,024 under a much higher hard one.
public struct OpenFileLimit: Equatable, Sendable {
    /// The limit in force.
    public var soft: UInt64
    /// The most the soft limit may be raised to without privileges.
    public var hard: UInt64

    /// Descriptors kept for things other than connections: listeners, the database and its WAL and
    /// shared-memory files for each pooled connection, standard streams, the epoll and event descriptors.
    public static let reserve: UInt64 = 64

    /// The current limits, or nil when they cannot be read.
    public static func current() -> OpenFileLimit? {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_CONSTANT, &limit) == 0 else { return nil }
        return OpenFileLimit(soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
    }

    /// The soft limit that leaves `connections` plus the reserve room, within the hard limit; nil when
    /// the current soft limit is already enough.
    public func raisedSoftLimit(for connections: Int) -> UInt64? {
        let needed = UInt64(max(connections, 0)) + Self.reserve
        guard soft < needed else { return nil }
        return min(needed, hard)
    }

    /// Raises the soft limit so `connections` fit, as far as the hard limit allows, and warns when they
    /// still do not. Returns the limits now in force.
    @discardableResult
    public static func ensureRoom(for connections: Int, logger: Logger) -> OpenFileLimit? {
        guard var limits = current() else { return nil }
        if let target = limits.raisedSoftLimit(for: connections) {
            var wanted = rlimit(rlim_cur: rlim_t(target), rlim_max: rlim_t(limits.hard))
            if setrlimit(RLIMIT_NOFILE_CONSTANT, &wanted) == 0 {
                logger.info("server.nofile_raised", metadata: ["from": "\(limits.soft)", "to": "\(target)"])
                limits.soft = target
            }
        }
        if limits.soft < UInt64(connections) + reserve {
            logger.warning("server.nofile_low", metadata: [
                "nofile": "\(limits.soft)", "maxConnections": "\(connections)",
                "advice": "raise the nofile limit (ulimit -n, LimitNOFILE=) or lower maxConnections",
            ])
        }
        return limits
    }
}

/// Glibc imports `RLIMIT_NOFILE` as a `__rlimit_resource` value; `getrlimit` takes its raw type.
private let RLIMIT_NOFILE_CONSTANT = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
