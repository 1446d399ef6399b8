import CareSyncCore
import CareSyncStore

extension SQLiteBackend {
    /// Monitoring episodes and review minutes, in the same file.
    public var monitoring: any MonitoringStore { SQLiteMonitoringStore(database: database) }
}
