import CareSyncCore
import CareSyncTestSupport
import Foundation
@testable import CareSyncPostgres

/// The PostgreSQL server the tests may use, named by `CARESYNC_TEST_POSTGRES_URL` (scripts/ci-postgres.sh
/// starts one and sets it). Unset, every PostgreSQL test is skipped and the contract suite runs without it.
enum PostgresFixture {
    /// The server's URL, or nil.
    static let url: String? = ProcessInfo.processInfo.environment["CARESYNC_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    /// Whether PostgreSQL tests run.
    static var isAvailable: Bool { url != nil }
    /// `migrations/postgresql`.
    static let migrationsURL = StoreFixture.migrationsURL.appendingPathComponent("postgresql")

    struct Unavailable: Error {}

    /// Settings for a fresh, empty schema of its own (dropped when the test process exits).
    static func makeConfiguration() throws -> PostgresDatabase.Configuration {
        guard let url else { throw Unavailable() }
        let schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
        try PostgresConnection(url: url).execute("CREATE SCHEMA \(schema)")
        schemas.keep(schema)
        var configuration = PostgresDatabase.Configuration(url: url, schema: schema)
        configuration.maximumReaders = 2
        return configuration
    }

    /// A migrated database in a fresh schema.
    static func makeDatabase() throws -> PostgresDatabase {
        let database = try PostgresDatabase(try makeConfiguration())
        try PostgresMigrator(directory: migrationsURL).migrate(database)
        return database
    }

    /// A migrated store in a fresh schema.
    static func makeStore() throws -> PostgresSyncStore {
        try PostgresSyncStore(database: try makeDatabase())
    }

    /// The contract suite's entries: none without a server.
    static var contractStores: [ContractStore] {
        isAvailable ? [ContractStore(name: "PostgresSyncStore") { try makeStore() }] : []
    }

    /// The contract suite's pairs: the sync store and the access store on one database.
    static var contractPairs: [ContractStorePair] {
        isAvailable ? [ContractStorePair(name: "PostgresSyncStore") {
            let store = try makeStore()
            return (store, PostgresAccessStore(database: store.database))
        }] : []
    }

    /// The webhook contract suite's triples: sync, access and webhook stores on one database.
    static var contractWebhookStores: [ContractWebhookStores] {
        isAvailable ? [ContractWebhookStores(name: "PostgresSyncStore") {
            let store = try makeStore()
            return (store, PostgresAccessStore(database: store.database), PostgresWebhookStore(store: store))
        }] : []
    }

    private static let schemas = KeptSchemas()
}

/// Schemas made by this process, dropped at exit so a shared server does not fill up.
final class KeptSchemas: Sendable {
    private let state = Shared<(names: [String], registered: Bool)>(([], false))

    func keep(_ name: String) {
        let first = state.update { state -> Bool in
            state.names.append(name)
            defer { state.registered = true }
            return !state.registered
        }
        if first { atexit { PostgresFixture.dropSchemas() } }
    }

    func takeAll() -> [String] { state.update { state in defer { state.names = [] }; return state.names } }
}

extension PostgresFixture {
    /// Drops every schema this process made (best effort: the CI server is thrown away anyway).
    static func dropSchemas() {
        let names = schemas.takeAll()
        guard let url, !names.isEmpty, let db = try? PostgresConnection(url: url) else { return }
        for chunk in stride(from: 0, to: names.count, by: 50).map({ Array(names[$0..<min($0 + 50, names.count)]) }) {
            try? db.execute("DROP SCHEMA IF EXISTS \(chunk.joined(separator: ", ")) CASCADE")
        }
    }
}
