import CareSyncCore
import CareSyncPostgres

extension PostgresBackend {
    /// Registered passkeys, in the same database.
    public var passkeys: any PasskeyStore { PostgresPasskeyStore(database: store.database) }
}
