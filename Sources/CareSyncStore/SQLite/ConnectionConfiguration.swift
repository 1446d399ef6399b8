/// How a `Connection` opens and sets itself up.
public struct ConnectionConfiguration: Hashable, Sendable {
    /// `PRAGMA synchronous`: how hard SQLite flushes to disk at commit.
    public enum Synchronous: String, Hashable, Sendable {
        /// No fsync: fastest, a power cut may lose or corrupt recent commits.
        case off = "OFF"
        /// In WAL mode: durable against process crashes, a power cut may lose the last commits.
        case normal = "NORMAL"
        /// fsync at every commit: durable against power loss.
        case full = "FULL"
        /// As `full`, and also syncs the directory after deleting a rollback journal.
        case extra = "EXTRA"
    }

    /// Opens read-only (readers of the pool); otherwise read-write and creates the file if needed.
    public var readOnly: Bool = false
    /// Use write-ahead logging (readers never block the writer). Set by the writer; readers inherit it.
    public var walMode: Bool = true
    /// How long a locked database is retried before `SQLITE_BUSY`, in milliseconds.
    public var busyTimeoutMilliseconds: Int32 = 5_000
    /// Commit durability.
    public var synchronous: Synchronous = .normal
    /// Enforce `FOREIGN KEY` constraints.
    public var foreignKeys: Bool = true
    /// Page cache size in KiB (`PRAGMA cache_size = -N`), nil keeps SQLite's default.
    public var cacheSizeKiB: Int? = 16 * 1024

    /// The default: read-write, WAL, 5 s busy timeout, `synchronous=NORMAL`, foreign keys on.
    public init() {}
}
