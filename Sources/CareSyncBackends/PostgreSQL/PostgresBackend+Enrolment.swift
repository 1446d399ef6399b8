import CareSyncCore
import CareSyncPostgres

extension PostgresBackend {
    /// Device enrolments and source display names, in the same database.
    public var enrolments: any EnrolmentStore { PostgresEnrolmentStore(database: store.database) }
}
