import Logging

/// Keeps protected health information out of logs: only metadata in known operational
/// namespaces is written, and never a key that may carry values, bodies, paths or secrets.
///
/// A key's namespace is the part before its first dot (`request` in `request.id`). A key outside
/// the allowed namespaces, or whose last part is denied (`sample.value`, `token.secret`,
/// `http.path`), is written as ``redacted`` instead of its value.
public enum LogPrivacy {
    /// The text written in place of a withheld value.
    public static let redacted: Logger.MetadataValue = "[redacted]"

    /// Namespaces whose keys describe the service, not a patient.
    public static let allowedNamespaces: Set<String> = [
        "audit", "backup", "config", "connection", "database", "db", "duration", "error", "feed",
        "gzip", "healthcheck", "http", "idempotency", "job", "limit", "listener", "metrics",
        "migration", "process", "request", "retention", "route", "server", "shutdown", "signal",
        "startup", "status", "store", "sync", "token", "webhook", "worker",
    ]

    /// Last key parts that are withheld in every namespace: they may carry PHI or secrets.
    public static let deniedLeaves: Set<String> = [
        "authorization", "body", "metadata", "password", "payload", "sample", "samples", "secret",
        "value", "values",
    ]

    /// Last key parts withheld in the `http` and `request` namespaces: a concrete request path
    /// names a patient (`/v1/patients/P1/…`), so log the route template (`route`) instead; a peer
    /// address is one of HIPAA's identifiers.
    public static let deniedRequestLeaves: Set<String> = ["path", "peer", "query", "target", "uri", "url"]

    /// Whether a metadata key's value may be written.
    public static func allows(_ key: String) -> Bool {
        let parts = key.lowercased().split(separator: ".", omittingEmptySubsequences: false)
        guard let first = parts.first, let last = parts.last else { return false }
        let namespace = String(first), leaf = String(last)
        guard allowedNamespaces.contains(namespace), !deniedLeaves.contains(leaf) else { return false }
        return !(namespace == "http" || namespace == "request") || !deniedRequestLeaves.contains(leaf)
    }

    /// The metadata with every withheld value replaced by ``redacted``.
    public static func filter(_ metadata: Logger.Metadata) -> Logger.Metadata {
        var filtered = metadata
        for key in metadata.keys where !allows(key) {
            filtered[key] = redacted
        }
        return filtered
    }
}
