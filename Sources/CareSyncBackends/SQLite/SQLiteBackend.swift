import CareSyncCore
import CareSyncStore
import Foundation

/// The stores on one SQLite file (the default backend): opened with its start-up checks, migrated from
/// `migrations/`, backed up through SQLite's online backup.
public struct SQLiteBackend: StoreBackend {
    /// The open database (tests read and break it directly).
    public let database: Database
    /// The sync store on it.
    public let store: SQLiteSyncStore
    /// Patients, care teams, tokens and the audit log, in the same file.
    public let access: any AccessStore
    /// Webhook subscriptions and their deliveries, in the same file.
    public let webhooks: any WebhookStore
    /// The sync store, as the API sees it.
    public var sync: any SyncStore { store }

    /// Opens (creating if needed), checks and migrates the file of `settings`.
    public static func open(_ settings: StoreSettings) throws -> SQLiteBackend {
        let url = URL(fileURLWithPath: settings.databasePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var configuration = Database.Configuration()
        configuration.connection.synchronous = switch settings.sqliteSynchronous {
        case .off: .off
        case .normal: .normal
        case .full: .full
        case .extra: .extra
        }
        let database = try StartupCheck.opening(settings.databasePath) {
            try Database(path: settings.databasePath, configuration: configuration)
        }
        try StartupCheck.verifyWritable(database)
        try Migrator(directory: URL(fileURLWithPath: settings.migrationsDirectory)).migrate(database)
        return SQLiteBackend(database: database, store: try SQLiteSyncStore(database: database),
                             access: SQLiteAccessStore(database: database), webhooks: SQLiteWebhookStore(database: database))
    }

    /// Applies the pending files of `migrations/` to the file (created if missing).
    public static func migrate(_ settings: StoreSettings) throws -> [String] {
        let url = URL(fileURLWithPath: settings.databasePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let database = try Database(path: settings.databasePath)
        return try Migrator(directory: URL(fileURLWithPath: settings.migrationsDirectory)).migrate(database)
    }

    /// Copies the file to `path` through SQLite's online backup; the copy gets a new store id (`SQLiteSyncStore.backup`).
    public static func backup(_ settings: StoreSettings, to path: String) throws {
        _ = try open(settings).store.backup(to: path)
    }
}
