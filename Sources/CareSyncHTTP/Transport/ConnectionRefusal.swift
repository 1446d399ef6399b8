/// Why the server turned a connection away (what `HTTPServer`'s `onRefusal` hears, for metrics).
public enum ConnectionRefusal: String, Sendable, CaseIterable {
    /// At `maxConnections` (503).
    case cap
    /// Its client address already held `maxConnectionsPerAddress` (429).
    case address
    /// Admitted into the probe reserve, it asked for another path (503).
    case reserved
}
