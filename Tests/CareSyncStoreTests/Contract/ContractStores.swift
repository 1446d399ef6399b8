import CareSyncCore
import CareSyncReferenceModel
import Foundation

/// One implementation of `SyncStore` the contract suite runs against.
struct ContractStore: Sendable, CustomStringConvertible {
    /// Shown in test names.
    let name: String
    /// Makes a fresh, empty store.
    let make: @Sendable () throws -> any SyncStore
    var description: String { name }
}

/// Every store implementation. The contract suite is parameterized over this list:
/// add a factory here and every contract test runs against it.
enum ContractStores {
    static let all: [ContractStore] = [
        ContractStore(name: "InMemorySyncStore") { InMemorySyncStore() },
        ContractStore(name: "SQLiteSyncStore") { try StoreFixture.make().store },
    ]
}
