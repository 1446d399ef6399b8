import CareSyncCore
import CareSyncStore

extension SQLiteBackend {
    /// FHIR bulk export records, in the same file.
    public var bulkExports: any BulkExportStore { SQLiteBulkExportStore(database: database) }
}
