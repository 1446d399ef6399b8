import CareSyncCore
import CareSyncPostgres

extension PostgresBackend {
    /// The erasure of a patient, on the same database.
    public var erasure: any ErasureStore { PostgresErasureStore(database: store.database) }
}
