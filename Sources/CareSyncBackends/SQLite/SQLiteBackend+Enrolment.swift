import CareSyncCore
import CareSyncStore

extension SQLiteBackend {
    /// Device enrolments and source display names, in the same file.
    public var enrolments: any EnrolmentStore { SQLiteEnrolmentStore(database: database) }
}
