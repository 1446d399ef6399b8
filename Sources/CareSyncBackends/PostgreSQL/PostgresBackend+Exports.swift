import CareSyncCore
import CareSyncPostgres

extension PostgresBackend {
    /// FHIR bulk export records, in the same database.
    public var bulkExports: any BulkExportStore { PostgresBulkExportStore(database: store.database) }
}
