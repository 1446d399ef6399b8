import CareSyncBackends
import CareSyncStore
import Testing

extension TestServer {
    /// The SQLite file under the server, through the SQLite backend's own handle (tests read and break it directly).
    func sqliteDatabase() throws -> Database {
        try #require(app.backend as? SQLiteBackend, "the server is not on SQLite").database
    }
}
