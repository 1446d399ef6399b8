import CareSyncCore
import CareSyncPostgres

extension PostgresBackend {
    /// Monitoring episodes and review minutes, in the same database.
    public var monitoring: any MonitoringStore { PostgresMonitoringStore(database: store.database) }
}
