import CareSyncCore
import CareSyncPostgres
import CareSyncReferenceModel
import CareSyncStore
import Foundation
import Testing

/// One passkey store the contract runs against.
struct ContractPasskeyStore: Sendable, CustomStringConvertible {
    /// Shown in test names.
    let name: String
    /// Makes a fresh, empty store.
    let make: @Sendable () throws -> any PasskeyStore
    var description: String { name }

    /// Every implementation: the reference model, SQLite, and PostgreSQL when `CARESYNC_TEST_POSTGRES_URL` is set.
    static let all: [ContractPasskeyStore] = [
        ContractPasskeyStore(name: "InMemoryPasskeyStore") { InMemoryPasskeyStore() },
        ContractPasskeyStore(name: "SQLitePasskeyStore") { SQLitePasskeyStore(database: try StoreFixture.make().store.database) },
    ] + (PostgresFixture.isAvailable ? [ContractPasskeyStore(name: "PostgresPasskeyStore") {
        PostgresPasskeyStore(database: try PostgresFixture.makeDatabase())
    }] : [])
}

/// Passkeys on every store: ids unique across people, a person's list oldest first, the counter a compare-and-set,
/// removal only by the owner, every field (binary, booleans, times to the millisecond) read back as written.
struct PasskeyContractTests {
    static let at = Date(timeIntervalSince1970: 1_800_000_000.123)

    static func make(_ id: [UInt8], person: String = "person-1", createdAt: Date = at, signCount: UInt32 = 1) -> PasskeyCredential {
        PasskeyCredential(credentialID: id, personID: person, userHandle: [UInt8](repeating: 0xee, count: 32),
                          publicKeyCOSE: [0xa5, 0x01, 0x02, 0x03, 0x26] + id, algorithm: -7, signCount: signCount,
                          aaguid: Array(0..<16), backupEligible: true, backedUp: false, name: "Laptop \(id.first ?? 0)", createdAt: createdAt)
    }

    @Test(arguments: ContractPasskeyStore.all)
    func aCredentialReadsBackAsWritten(store: ContractPasskeyStore) throws {
        let passkeys = try store.make()
        let credential = Self.make([0x00, 0xff, 0x10], signCount: UInt32.max - 1)
        try passkeys.insertPasskey(credential)
        #expect(try passkeys.passkey(credentialID: [0x00, 0xff, 0x10]) == credential)
        #expect(try passkeys.passkey(credentialID: [0x00, 0xff]) == nil)
        #expect(try passkeys.passkeys(person: "person-1") == [credential] && (try passkeys.passkeys(person: "person-2").isEmpty))
    }

    @Test(arguments: ContractPasskeyStore.all)
    func aCredentialIDIsUniqueAcrossPeople(store: ContractPasskeyStore) throws {
        let passkeys = try store.make()
        try passkeys.insertPasskey(Self.make([1, 2, 3], person: "person-1"))
        #expect(throws: PasskeyStoreError.alreadyExists) { try passkeys.insertPasskey(Self.make([1, 2, 3], person: "person-2")) }
        #expect(try passkeys.passkeys(person: "person-2").isEmpty && (try passkeys.passkey(credentialID: [1, 2, 3]))?.personID == "person-1")
    }

    @Test(arguments: ContractPasskeyStore.all)
    func aPersonsPasskeysAreListedOldestFirst(store: ContractPasskeyStore) throws {
        let passkeys = try store.make()
        try passkeys.insertPasskey(Self.make([9], createdAt: Self.at.addingTimeInterval(2)))
        try passkeys.insertPasskey(Self.make([5], createdAt: Self.at))
        try passkeys.insertPasskey(Self.make([3], createdAt: Self.at.addingTimeInterval(2)))
        try passkeys.insertPasskey(Self.make([7], person: "person-2"))
        #expect(try passkeys.passkeys(person: "person-1").map(\.credentialID) == [[5], [3], [9]])
    }

    @Test(arguments: ContractPasskeyStore.all)
    func aUseIsRecordedOnlyFromTheExpectedCounter(store: ContractPasskeyStore) throws {
        let passkeys = try store.make()
        try passkeys.insertPasskey(Self.make([1], signCount: 4))
        let later = Date(timeIntervalSince1970: 1_800_000_090.623)
        #expect(try !passkeys.recordPasskeyUse(credentialID: [1], expectedSignCount: 3, signCount: 9, backedUp: true, at: later))
        #expect(try !passkeys.recordPasskeyUse(credentialID: [2], expectedSignCount: 4, signCount: 9, backedUp: true, at: later))
        #expect(try passkeys.passkey(credentialID: [1]) == Self.make([1], signCount: 4))
        #expect(try passkeys.recordPasskeyUse(credentialID: [1], expectedSignCount: 4, signCount: 9, backedUp: true, at: later))
        #expect(try !passkeys.recordPasskeyUse(credentialID: [1], expectedSignCount: 4, signCount: 10, backedUp: true, at: later))
        let used = try #require(try passkeys.passkey(credentialID: [1]))
        #expect(used.signCount == 9 && used.backedUp && used.lastUsedAt == later && used.createdAt == Self.at)
    }

    @Test(arguments: ContractPasskeyStore.all)
    func onlyTheOwnerRemovesAPasskey(store: ContractPasskeyStore) throws {
        let passkeys = try store.make()
        try passkeys.insertPasskey(Self.make([1]))
        try passkeys.insertPasskey(Self.make([2]))
        #expect(try !passkeys.deletePasskey(credentialID: [1], person: "person-2"))
        #expect(try passkeys.deletePasskey(credentialID: [1], person: "person-1"))
        #expect(try !passkeys.deletePasskey(credentialID: [1], person: "person-1"))
        #expect(try passkeys.passkeys(person: "person-1").map(\.credentialID) == [[2]] && (try passkeys.passkey(credentialID: [1])) == nil)
        try passkeys.insertPasskey(Self.make([1], person: "person-3"))
        #expect(try passkeys.passkey(credentialID: [1])?.personID == "person-3")
    }
}
