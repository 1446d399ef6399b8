import CareSyncCore

extension Configuration {
    /// What the store backend needs of the configuration: where the database is and how to migrate it.
    public var storeSettings: StoreSettings {
        let synchronous: StoreSettings.SQLiteSynchronous = switch sqliteSynchronous {
        case .off: .off
        case .normal: .normal
        case .full: .full
        case .extra: .extra
        }
        return StoreSettings(databasePath: databasePath, databaseURL: databaseURL, migrationsDirectory: migrationsDirectory,
                             sqliteSynchronous: synchronous)
    }
}
