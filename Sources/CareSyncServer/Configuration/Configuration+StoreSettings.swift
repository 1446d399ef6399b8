import CareSyncCore
import Foundation

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

extension Configuration {
    /// The folder of bulk export files: `export.directory`, else `<database>-exports` beside the SQLite file, else
    /// (on PostgreSQL) `caresync-exports` in the system's temporary folder.
    public var resolvedExportDirectory: String {
        if !exportDirectory.isEmpty { return exportDirectory }
        if databaseURL == nil { return databasePath + "-exports" }
        return URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("caresync-exports").path
    }
}
