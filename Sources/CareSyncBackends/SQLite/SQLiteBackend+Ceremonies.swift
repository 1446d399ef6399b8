import CareSyncCore
import CareSyncStore

extension SQLiteBackend {
    /// Pending sign-in ceremonies, in the same file.
    public var ceremonies: any PendingCeremonyStore { SQLiteCeremonyStore(database: database) }
}
