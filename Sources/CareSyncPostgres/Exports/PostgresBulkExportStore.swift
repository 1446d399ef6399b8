import CareSyncStoreCore

extension PostgresDatabase: QueryDatabase {}

/// FHIR bulk export records in the PostgreSQL database (migration 0022, the tables of SQLite's 0029).
public typealias PostgresBulkExportStore = DatabaseBulkExportStore<PostgresDatabase>
