import CareSyncCore
import CareSyncStore

extension SQLiteBackend {
    /// Alert rules and alerts, in the same file (their webhook events go to its outbox).
    public var alerts: any AlertStore { SQLiteAlertStore(database: database) }
}
