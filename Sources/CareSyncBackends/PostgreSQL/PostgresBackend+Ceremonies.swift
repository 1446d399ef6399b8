import CareSyncCore
import CareSyncPostgres

extension PostgresBackend {
    /// Pending sign-in ceremonies, in the same database.
    public var ceremonies: any PendingCeremonyStore { PostgresCeremonyStore(database: store.database) }
}
