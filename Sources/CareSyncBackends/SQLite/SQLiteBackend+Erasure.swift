import CareSyncCore
import CareSyncStore

extension SQLiteBackend {
    /// The erasure of a patient, on the same file.
    public var erasure: any ErasureStore { SQLiteErasureStore(database: database) }
}
