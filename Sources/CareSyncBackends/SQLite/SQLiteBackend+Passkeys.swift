import CareSyncCore
import CareSyncStore

extension SQLiteBackend {
    /// Registered passkeys, in the same file.
    public var passkeys: any PasskeyStore { SQLitePasskeyStore(database: database) }
}
