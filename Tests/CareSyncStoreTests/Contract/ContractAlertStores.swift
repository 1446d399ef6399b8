import CareSyncCore
import CareSyncPostgres
import CareSyncReferenceModel
import CareSyncStore
import Foundation

/// The stores of one "database" the alert contract runs against: sync, access, webhooks, monitoring and alerts.
struct ContractAlertStores: Sendable, CustomStringConvertible {
    /// One database's stores.
    struct Stores {
        let sync: any SyncStore
        let access: any AccessStore
        let webhooks: any WebhookStore
        let monitoring: any MonitoringStore
        let alerts: any AlertStore
        let erasure: any ErasureStore
    }
    /// Shown in test names.
    let name: String
    /// Makes fresh, empty stores.
    let make: @Sendable () throws -> Stores
    var description: String { name }

    /// Every implementation: the reference model, SQLite, and PostgreSQL when `CARESYNC_TEST_POSTGRES_URL` is set.
    static let all: [ContractAlertStores] = [
        ContractAlertStores(name: "InMemorySyncStore") {
            let access = InMemoryAccessStore()
            let sync = InMemorySyncStore(access: access)
            let webhooks = InMemoryWebhookStore(sync: sync, access: access), monitoring = InMemoryMonitoringStore()
            return Stores(sync: sync, access: access, webhooks: webhooks, monitoring: monitoring, alerts: InMemoryAlertStore(sync: sync, access: access),
                          erasure: InMemoryErasureStore(sync: sync, access: access, monitoring: monitoring, webhooks: webhooks))
        },
        ContractAlertStores(name: "SQLiteSyncStore") {
            let store = try StoreFixture.make().store
            return Stores(sync: store, access: SQLiteAccessStore(database: store.database), webhooks: SQLiteWebhookStore(database: store.database),
                          monitoring: SQLiteMonitoringStore(database: store.database), alerts: SQLiteAlertStore(database: store.database),
                          erasure: SQLiteErasureStore(database: store.database))
        },
    ] + (PostgresFixture.isAvailable ? [ContractAlertStores(name: "PostgresSyncStore") {
        let store = try PostgresFixture.makeStore()
        return Stores(sync: store, access: PostgresAccessStore(database: store.database), webhooks: PostgresWebhookStore(store: store),
                      monitoring: PostgresMonitoringStore(database: store.database), alerts: PostgresAlertStore(database: store.database),
                      erasure: PostgresErasureStore(database: store.database))
    }] : [])
}
