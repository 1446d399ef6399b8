import CareSyncCore
import CareSyncReferenceModel
import Foundation
import CareSyncStore

/// One implementation of `SyncStore` the contract suite runs against.
struct ContractStore: Sendable, CustomStringConvertible {
    /// Shown in test names.
    let name: String
    /// Makes a fresh, empty store.
    let make: @Sendable () throws -> any SyncStore
    var description: String { name }
}

/// Every store implementation. The contract suite is parameterized over this list:
/// add a factory here and every contract test runs against it. PostgreSQL joins when
/// `CARESYNC_TEST_POSTGRES_URL` names a server (`PostgresFixture`).
enum ContractStores {
    static let all: [ContractStore] = [
        ContractStore(name: "InMemorySyncStore") { InMemorySyncStore() },
        ContractStore(name: "SQLiteSyncStore") { try StoreFixture.make().store },
    ] + PostgresFixture.contractStores
}

/// A sync store with the access store that shares its "database": audit records written in a sync
/// transaction are read back through the access store.
struct ContractStorePair: Sendable, CustomStringConvertible {
    /// Shown in test names.
    let name: String
    /// Makes a fresh, empty pair.
    let make: @Sendable () throws -> (sync: any SyncStore, access: any AccessStore)
    var description: String { name }
}

extension ContractStores {
    /// Every implementation, with its access store.
    static let pairs: [ContractStorePair] = [
        ContractStorePair(name: "InMemorySyncStore") {
            let access = InMemoryAccessStore()
            return (InMemorySyncStore(access: access), access)
        },
        ContractStorePair(name: "SQLiteSyncStore") {
            let store = try StoreFixture.make().store
            return (store, SQLiteAccessStore(database: store.database))
        },
    ] + PostgresFixture.contractPairs
}

/// A sync store, its access store and its webhook store on one "database": the outbox the sync store writes feeds
/// the webhook store, which matches care teams of the access store.
struct ContractWebhookStores: Sendable, CustomStringConvertible {
    /// Shown in test names.
    let name: String
    /// Makes a fresh, empty triple.
    let make: @Sendable () throws -> (sync: any SyncStore, access: any AccessStore, webhooks: any WebhookStore)
    var description: String { name }
}

extension ContractStores {
    /// Every implementation, with its access and webhook stores.
    static let webhooks: [ContractWebhookStores] = [
        ContractWebhookStores(name: "InMemorySyncStore") {
            let access = InMemoryAccessStore()
            let sync = InMemorySyncStore(access: access)
            return (sync, access, InMemoryWebhookStore(sync: sync, access: access))
        },
        ContractWebhookStores(name: "SQLiteSyncStore") {
            let store = try StoreFixture.make().store
            return (store, SQLiteAccessStore(database: store.database), SQLiteWebhookStore(database: store.database))
        },
    ] + PostgresFixture.contractWebhookStores
}
