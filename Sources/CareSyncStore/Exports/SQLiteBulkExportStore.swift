import CareSyncStoreCore

extension Database: QueryDatabase {}

/// FHIR bulk export records in the SQLite database (migration 0029).
public typealias SQLiteBulkExportStore = DatabaseBulkExportStore<Database>
