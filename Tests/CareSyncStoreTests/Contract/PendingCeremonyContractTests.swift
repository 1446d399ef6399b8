import CareSyncCore
import CareSyncPostgres
import CareSyncStore
import Dispatch
import Foundation
import Synchronization
import Testing

/// One pending-ceremony store the contract runs against.
struct ContractCeremonyStore: Sendable, CustomStringConvertible {
    /// Shown in test names.
    let name: String
    /// Makes a fresh, empty store.
    let make: @Sendable () throws -> any PendingCeremonyStore
    var description: String { name }

    /// Every implementation: this instance's memory, SQLite, and PostgreSQL when `CARESYNC_TEST_POSTGRES_URL` is set.
    static let all: [ContractCeremonyStore] = [
        ContractCeremonyStore(name: "InstanceCeremonyStore") { InstanceCeremonyStore() },
        ContractCeremonyStore(name: "SQLiteCeremonyStore") { SQLiteCeremonyStore(database: try StoreFixture.make().store.database) },
    ] + (PostgresFixture.isAvailable ? [ContractCeremonyStore(name: "PostgresCeremonyStore") {
        PostgresCeremonyStore(database: try PostgresFixture.makeDatabase())
    }] : [])
}

/// Pending ceremonies on every store: read back as written (times to the millisecond), taken once, kinds apart,
/// expired ones of a kind deleted by its next insert, at most `capacity` of a kind, one winner among concurrent takes.
struct PendingCeremonyContractTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000.123)

    static func key(_ n: Int) -> [UInt8] { [UInt8](repeating: UInt8(n), count: 31) + [0xa5] }

    static func ceremony(_ n: Int, _ kind: PendingCeremony.Kind = .passkey, expiresIn seconds: TimeInterval = 300) -> PendingCeremony {
        PendingCeremony(kind: kind, key: key(n), payload: [0x7b, UInt8(n), 0x00, 0xff, 0x7d], expiresAt: now.addingTimeInterval(seconds))
    }

    @Test(arguments: ContractCeremonyStore.all)
    func aCeremonyIsTakenOnceAsWritten(store: ContractCeremonyStore) throws {
        let ceremonies = try store.make()
        let written = Self.ceremony(1, expiresIn: 300.0004)
        #expect(try ceremonies.insertCeremony(written, capacity: 10, at: Self.now))
        var expected = written
        expected.expiresAt = SyncRules.date(milliseconds: SyncRules.milliseconds(written.expiresAt))
        #expect(try ceremonies.ceremonyCount(kind: .passkey) == 1)
        #expect(try ceremonies.takeCeremony(kind: .passkey, key: Self.key(1)) == expected)
        #expect(try ceremonies.takeCeremony(kind: .passkey, key: Self.key(1)) == nil)
        #expect(try ceremonies.ceremonyCount(kind: .passkey) == 0)
    }

    @Test(arguments: ContractCeremonyStore.all)
    func kindsKeepTheirOwnKeysAndCounts(store: ContractCeremonyStore) throws {
        let ceremonies = try store.make()
        #expect(try ceremonies.insertCeremony(Self.ceremony(1, .passkey), capacity: 10, at: Self.now))
        #expect(try ceremonies.insertCeremony(Self.ceremony(1, .openIDConnect), capacity: 10, at: Self.now))
        #expect(throws: PendingCeremonyStoreError.alreadyExists) {
            try ceremonies.insertCeremony(Self.ceremony(1, .passkey), capacity: 10, at: Self.now)
        }
        #expect(try ceremonies.takeCeremony(kind: .openIDConnect, key: Self.key(1))?.kind == .openIDConnect)
        #expect(try ceremonies.takeCeremony(kind: .openIDConnect, key: Self.key(1)) == nil)
        #expect(try ceremonies.ceremonyCount(kind: .passkey) == 1 && (try ceremonies.ceremonyCount(kind: .openIDConnect)) == 0)
    }

    @Test(arguments: ContractCeremonyStore.all)
    func anExpiredCeremonyIsStillTakenUntilAnInsertOfItsKindDeletesIt(store: ContractCeremonyStore) throws {
        let ceremonies = try store.make()
        #expect(try ceremonies.insertCeremony(Self.ceremony(1, expiresIn: 10), capacity: 10, at: Self.now))
        #expect(try ceremonies.insertCeremony(Self.ceremony(2, expiresIn: 20), capacity: 10, at: Self.now))
        #expect(try ceremonies.insertCeremony(Self.ceremony(3, .openIDConnect, expiresIn: 10), capacity: 10, at: Self.now))
        let later = Self.now.addingTimeInterval(15)
        #expect(try ceremonies.takeCeremony(kind: .passkey, key: Self.key(1))?.expiresAt == SyncRules.date(milliseconds: SyncRules.milliseconds(Self.now) + 10_000))
        #expect(try ceremonies.insertCeremony(Self.ceremony(1, expiresIn: 10), capacity: 10, at: Self.now))
        #expect(try ceremonies.insertCeremony(Self.ceremony(4), capacity: 10, at: later))
        #expect(try ceremonies.takeCeremony(kind: .passkey, key: Self.key(1)) == nil)  // expired at 10 s, deleted at 15 s
        #expect(try ceremonies.ceremonyCount(kind: .passkey) == 2)                       // 2 (until 20 s) and 4
        #expect(try ceremonies.ceremonyCount(kind: .openIDConnect) == 1)                 // another kind's insert leaves it
    }

    @Test(arguments: ContractCeremonyStore.all)
    func atCapacityNothingIsStoredUntilOnesExpire(store: ContractCeremonyStore) throws {
        let ceremonies = try store.make()
        #expect(try ceremonies.insertCeremony(Self.ceremony(1, expiresIn: 10), capacity: 2, at: Self.now))
        #expect(try ceremonies.insertCeremony(Self.ceremony(2, expiresIn: 60), capacity: 2, at: Self.now))
        #expect(try ceremonies.insertCeremony(Self.ceremony(3, .openIDConnect), capacity: 2, at: Self.now))
        #expect(try !ceremonies.insertCeremony(Self.ceremony(4), capacity: 2, at: Self.now))
        #expect(try ceremonies.takeCeremony(kind: .passkey, key: Self.key(4)) == nil)
        #expect(try ceremonies.insertCeremony(Self.ceremony(4), capacity: 2, at: Self.now.addingTimeInterval(10)))
        #expect(try ceremonies.ceremonyCount(kind: .passkey) == 2)
    }

    @Test(arguments: ContractCeremonyStore.all)
    func ofConcurrentTakesOfOneCeremonyExactlyOneGetsIt(store: ContractCeremonyStore) throws {
        let ceremonies = try store.make()
        for round in 0..<5 {
            #expect(try ceremonies.insertCeremony(Self.ceremony(round), capacity: 10, at: Self.now))
            let taken = Atomic(0), failed = Atomic(0)
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                do {
                    if try ceremonies.takeCeremony(kind: .passkey, key: Self.key(round)) != nil { taken.add(1, ordering: .relaxed) }
                } catch {
                    failed.add(1, ordering: .relaxed)
                }
            }
            #expect(taken.load(ordering: .relaxed) == 1 && failed.load(ordering: .relaxed) == 0, "round \(round)")
        }
    }
}
