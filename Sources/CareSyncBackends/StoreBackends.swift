import CareSyncCore

/// The backends CareSync can serve from, and which one the settings choose: PostgreSQL when `database.url` is set,
/// else the SQLite file (the default). The executable picks with it; the API never does.
public enum StoreBackends {
    /// The backend `settings` name.
    public static func chosen(by settings: StoreSettings) -> any StoreBackend.Type {
        settings.databaseURL == nil ? SQLiteBackend.self : PostgresBackend.self
    }

    /// Opens (creating and migrating as needed) the backend `settings` name.
    public static func open(_ settings: StoreSettings) throws -> any StoreBackend {
        try chosen(by: settings).open(settings)
    }
}
