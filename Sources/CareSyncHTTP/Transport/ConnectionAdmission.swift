import CareSyncLocking

/// Decides at accept whether a connection may open, so that no client can take every connection: the
/// server's cap, a share per client address, and a few slots kept for health probes once the cap is near.
final class ConnectionAdmission: Sendable {
    /// What an accepted socket may do.
    enum Decision: Equatable {
        /// A connection like any other.
        case admit
        /// Only the probe paths (`/healthz`, `/readyz` …), one request, then close: the cap is near.
        case probesOnly
        /// Answered with this problem and closed, for this reason.
        case refuse(HTTPError, ConnectionRefusal)
    }

    private let maxConnections: Int
    private let perAddress: Int
    private let reserved: Int
    private let open = Locked([String: Int]())

    /// Admission under `configuration`'s cap, share per address and probe reserve.
    init(configuration: HTTPServer.Configuration) {
        maxConnections = configuration.maxConnections
        perAddress = configuration.maxConnectionsPerAddress
        reserved = min(configuration.reservedProbeConnections, max(0, configuration.maxConnections - 1))
    }

    /// The decision for a connection from `host` while `count` connections are open; an admitted one
    /// (`admit`, `probesOnly`) counts against its address until `release`.
    func decide(host: String, count: Int) -> Decision {
        if count >= maxConnections { return .refuse(HTTPError.unavailable("Too many connections."), .cap) }
        return open.withLock { open in
            let held = open[host, default: 0]
            if perAddress > 0, held >= perAddress {
                return .refuse(HTTPError.tooManyRequests("Too many connections from this address; close one or retry shortly."), .address)
            }
            open[host] = held + 1
            return count >= maxConnections - reserved ? .probesOnly : .admit
        }
    }

    /// A connection from `host` that `decide` admitted closed.
    func release(host: String) {
        open.withLock { open in
            let held = open[host, default: 0] - 1
            open[host] = held > 0 ? held : nil
        }
    }

    /// Connections open from `host` now.
    func count(from host: String) -> Int { open.withLock { $0[host, default: 0] } }
}
