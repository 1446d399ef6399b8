import CareSyncCore
import CareSyncPostgres
import CareSyncReferenceModel
import CareSyncStore
import Foundation
import Testing

/// The stores of one "database" the enrolment contract runs against: access (for patients) and enrolments.
struct ContractEnrolmentStores: Sendable, CustomStringConvertible {
    /// Shown in test names.
    let name: String
    /// Makes a fresh, empty pair.
    let make: @Sendable () throws -> (access: any AccessStore, enrolments: any EnrolmentStore)
    var description: String { name }

    /// Every implementation: the reference model, SQLite, and PostgreSQL when `CARESYNC_TEST_POSTGRES_URL` is set.
    static let all: [ContractEnrolmentStores] = [
        ContractEnrolmentStores(name: "InMemoryEnrolmentStore") {
            let access = InMemoryAccessStore()
            return (access, InMemoryEnrolmentStore(access: access))
        },
        ContractEnrolmentStores(name: "SQLiteEnrolmentStore") {
            let store = try StoreFixture.make().store
            return (SQLiteAccessStore(database: store.database), SQLiteEnrolmentStore(database: store.database))
        },
    ] + (PostgresFixture.isAvailable ? [ContractEnrolmentStores(name: "PostgresEnrolmentStore") {
        let store = try PostgresFixture.makeStore()
        return (PostgresAccessStore(database: store.database), PostgresEnrolmentStore(database: store.database))
    }] : [])
}

/// Enrolments on every store: a code is claimed at most once, never once expired or cancelled, and a released claim
/// can be made again; display names are one per patient and source, the latest enrolment's.
struct EnrolmentContractTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func hash(_ n: UInt8) -> [UInt8] { [UInt8](repeating: n, count: 32) }

    static func make(_ id: String, patient: String = "p1", code: UInt8, expiresIn: TimeInterval = 900) -> EnrolmentRecord {
        EnrolmentRecord(id: id, patient: patient, codeHash: hash(code), createdBy: "t1", createdAt: now, expiresAt: now.addingTimeInterval(expiresIn))
    }

    static func fixture(_ stores: ContractEnrolmentStores) throws -> any EnrolmentStore {
        let (access, enrolments) = try stores.make()
        try access.createPatient(PatientRecord(id: "p1", timeZone: "UTC", createdAt: now))
        try access.createPatient(PatientRecord(id: "p2", timeZone: "UTC", createdAt: now))
        return enrolments
    }

    @Test(arguments: ContractEnrolmentStores.all)
    func anEnrolmentIsStoredAndListedWhilePending(stores: ContractEnrolmentStores) throws {
        let store = try Self.fixture(stores)
        try store.insertEnrolment(Self.make("e1", code: 1))
        try store.insertEnrolment(Self.make("e2", code: 2, expiresIn: 60))
        try store.insertEnrolment(Self.make("e3", patient: "p2", code: 3))
        #expect(try store.enrolment(id: "e1") == Self.make("e1", code: 1))
        #expect(try store.enrolment(id: "nope") == nil)
        #expect(try store.pendingEnrolments(patient: "p1", at: Self.now).map(\.id) == ["e1", "e2"])
        #expect(try store.pendingEnrolments(patient: "p1", at: Self.now.addingTimeInterval(60)).map(\.id) == ["e1"])
        #expect(throws: AccessStoreError.alreadyExists("enrolment e4")) { try store.insertEnrolment(Self.make("e4", code: 1)) }
        #expect(throws: AccessStoreError.missing("patient p9")) { try store.insertEnrolment(Self.make("e5", patient: "p9", code: 5)) }
        #expect(try store.cancelEnrolment(id: "e2", at: Self.now))
        #expect(try !store.cancelEnrolment(id: "e2", at: Self.now))
        #expect(try store.pendingEnrolments(patient: "p1", at: Self.now).map(\.id) == ["e1"])
        #expect(try store.enrolment(id: "e2")?.cancelledAt == Self.now)
    }

    @Test(arguments: ContractEnrolmentStores.all)
    func aCodeIsClaimedOnceAndNeverWhenExpiredOrCancelled(stores: ContractEnrolmentStores) throws {
        let store = try Self.fixture(stores)
        try store.insertEnrolment(Self.make("e1", code: 1))
        try store.insertEnrolment(Self.make("e2", code: 2, expiresIn: 60))
        try store.insertEnrolment(Self.make("e3", code: 3))
        let claimed = try store.claimEnrolment(codeHash: Self.hash(1), at: Self.now)
        #expect(claimed?.id == "e1" && claimed?.patient == "p1" && claimed?.redeemedAt == Self.now)
        #expect(try store.claimEnrolment(codeHash: Self.hash(1), at: Self.now) == nil)
        #expect(try store.claimEnrolment(codeHash: Self.hash(2), at: Self.now.addingTimeInterval(60)) == nil)
        #expect(try store.cancelEnrolment(id: "e3", at: Self.now))
        #expect(try store.claimEnrolment(codeHash: Self.hash(3), at: Self.now) == nil)
        #expect(try store.claimEnrolment(codeHash: Self.hash(9), at: Self.now) == nil)
        #expect(try !store.cancelEnrolment(id: "e1", at: Self.now))
    }

    @Test(arguments: ContractEnrolmentStores.all)
    func aReleasedClaimCanBeMadeAgainUntilCompleted(stores: ContractEnrolmentStores) throws {
        let store = try Self.fixture(stores)
        try store.insertEnrolment(Self.make("e1", code: 1))
        _ = try store.claimEnrolment(codeHash: Self.hash(1), at: Self.now)
        try store.releaseEnrolment(id: "e1")
        #expect(try store.claimEnrolment(codeHash: Self.hash(1), at: Self.now)?.id == "e1")
        let device = DeviceSourceRecord(patient: "p1", source: "org.example.watch", displayName: "Apple Watch", tokenID: "k1", enrolledAt: Self.now)
        try store.completeEnrolment(id: "e1", device: device)
        try store.releaseEnrolment(id: "e1")
        #expect(try store.claimEnrolment(codeHash: Self.hash(1), at: Self.now) == nil)
        #expect(try store.enrolment(id: "e1")?.tokenID == "k1")
    }

    @Test(arguments: ContractEnrolmentStores.all)
    func displayNamesAreOnePerPatientAndSourceTheLatest(stores: ContractEnrolmentStores) throws {
        let store = try Self.fixture(stores)
        for (i, (patient, source, name)) in [("p1", "org.example.watch", "Apple Watch"), ("p1", "org.example.phone", "iPhone"),
                                              ("p2", "org.example.watch", "Bob's watch"), ("p1", "org.example.watch", "Apple Watch Ultra")].enumerated() {
            try store.insertEnrolment(Self.make("e\(i)", patient: patient, code: UInt8(i)))
            _ = try #require(try store.claimEnrolment(codeHash: Self.hash(UInt8(i)), at: Self.now))
            try store.completeEnrolment(id: "e\(i)", device: DeviceSourceRecord(patient: patient, source: source, displayName: name,
                                                                               tokenID: "k\(i)", enrolledAt: Self.now.addingTimeInterval(Double(i))))
        }
        let p1 = try store.deviceSources(patient: "p1")
        #expect(p1.map(\.source) == ["org.example.phone", "org.example.watch"])
        #expect(p1.map(\.displayName) == ["iPhone", "Apple Watch Ultra"] && p1[1].tokenID == "k3" && p1[1].enrolledAt == Self.now.addingTimeInterval(3))
        #expect(try store.deviceSources(patient: "p2").map(\.displayName) == ["Bob's watch"])
        #expect(try store.deviceSources(patient: "p3").isEmpty)
        // Several patients in one read: each its own, one without any listed empty.
        let all = try store.deviceSources(patients: ["p2", "p1", "p3"])
        #expect(all.keys.sorted() == ["p1", "p2", "p3"] && all["p1"] == p1 && all["p3"] == [])
        #expect(all["p2"]?.map(\.displayName) == ["Bob's watch"] && all["p2"]?.allSatisfy { $0.patient == "p2" } == true)
    }

    @Test(arguments: ContractEnrolmentStores.all)
    func concurrentClaimsOfOneCodeSucceedOnce(stores: ContractEnrolmentStores) async throws {
        let store = try Self.fixture(stores)
        try store.insertEnrolment(Self.make("e1", code: 1))
        let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 { group.addTask { try store.claimEnrolment(codeHash: Self.hash(1), at: Self.now) != nil } }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(wins == 1)
    }
}
