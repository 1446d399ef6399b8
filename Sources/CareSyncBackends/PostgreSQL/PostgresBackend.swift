import CareSyncCore
import CareSyncPostgres
import Foundation

/// The stores on a PostgreSQL database (`database.url`), shared by every CareSync instance on it: migrated from
/// `migrations/postgresql/`; backed up by PostgreSQL's own tools.
public struct PostgresBackend: StoreBackend {
    /// The sync store on it (its `database` is the connection pool).
    public let store: PostgresSyncStore
    /// Patients, care teams, tokens and the audit log, in the same database.
    public let access: any AccessStore
    /// Webhook subscriptions and their deliveries, in the same database.
    public let webhooks: any WebhookStore
    /// The sync store, as the API sees it.
    public var sync: any SyncStore { store }

    /// Connects to the database of `settings.databaseURL` and applies `<migrationsDirectory>/postgresql`.
    public static func open(_ settings: StoreSettings) throws -> PostgresBackend {
        let store = try PostgresSyncStore(configuration: PostgresDatabase.Configuration(url: url(settings)),
                                          migrationsDirectory: migrations(settings))
        return PostgresBackend(store: store, access: PostgresAccessStore(database: store.database),
                               webhooks: PostgresWebhookStore(store: store))
    }

    /// Applies the pending files of `<migrationsDirectory>/postgresql`.
    public static func migrate(_ settings: StoreSettings) throws -> [String] {
        try PostgresMigrator(directory: migrations(settings))
            .migrate(PostgresDatabase(PostgresDatabase.Configuration(url: url(settings))))
    }

    /// Refused: PostgreSQL has its own tools (`pg_dump`, a base backup).
    public static func backup(_ settings: StoreSettings, to path: String) throws {
        throw BackupUnsupported()
    }

    /// The PostgreSQL migrations: the `postgresql` folder of the migrations directory.
    static func migrations(_ settings: StoreSettings) -> URL {
        URL(fileURLWithPath: settings.migrationsDirectory).appendingPathComponent("postgresql")
    }

    /// `database.url`; only a settings without it would choose SQLite (`StoreBackends.chosen`).
    static func url(_ settings: StoreSettings) -> String {
        guard let url = settings.databaseURL else { preconditionFailure("PostgresBackend without database.url") }
        return url
    }
}

/// `caresync backup` copies the SQLite file; a PostgreSQL database has its own tools.
public struct BackupUnsupported: Error, CustomStringConvertible {
    /// The one line `caresync backup` prints.
    public var description: String { "backup copies the SQLite file; on PostgreSQL use pg_dump or a base backup (pg_basebackup)" }
}
