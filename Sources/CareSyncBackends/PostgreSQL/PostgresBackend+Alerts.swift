import CareSyncCore
import CareSyncPostgres

extension PostgresBackend {
    /// Alert rules and alerts, in the same database (their webhook events go to its outbox).
    public var alerts: any AlertStore { PostgresAlertStore(database: store.database) }
}
