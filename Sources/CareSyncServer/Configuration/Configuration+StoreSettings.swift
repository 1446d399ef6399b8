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
    /// (on PostgreSQL) `caresync-exports-<store id>` in the system's temporary folder: one folder per database, as the
    /// sweep removes the folders no export of its database names.
    public func resolvedExportDirectory(storeID: String) -> String {
        if !exportDirectory.isEmpty { return exportDirectory }
        if databaseURL == nil { return databasePath + "-exports" }
        let name = "caresync-exports-" + String(storeID.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.prefix(64))
        return URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(name).path
    }
}
