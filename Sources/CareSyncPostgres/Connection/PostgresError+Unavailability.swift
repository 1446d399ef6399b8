import CareSyncCore

extension PostgresError: StoreUnavailability {
    /// The server is unreachable, lost the connection, is a standby (or being demoted), or a statement ran
    /// past `statement_timeout`: all pass with a failover or a restart, so the API answers 503.
    public var isStoreUnavailable: Bool {
        [.connectionFailed, .connectionLost, .commitOutcomeUnknown, .readOnly, .queryCanceled].contains(kind)
    }

    /// The connection cannot take the next write: it broke, or it reaches a server that takes no writes (a
    /// standby after a failover, through a proxy that kept the session); a new connection may reach the leader.
    var needsNewConnection: Bool { kind == .connectionLost || kind == .readOnly }
}
