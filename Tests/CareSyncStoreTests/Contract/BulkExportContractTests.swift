import CareSyncCore
import CareSyncPostgres
import CareSyncStore
import Dispatch
import Foundation
import Synchronization
import Testing

/// One bulk-export store the contract runs against.
struct ContractBulkExportStore: Sendable, CustomStringConvertible {
    /// Shown in test names.
    let name: String
    /// Makes a fresh, empty store.
    let make: @Sendable () throws -> any BulkExportStore
    var description: String { name }

    /// Every implementation: this instance's memory, SQLite, and PostgreSQL when `CARESYNC_TEST_POSTGRES_URL` is set.
    static let all: [ContractBulkExportStore] = [
        ContractBulkExportStore(name: "InstanceBulkExportStore") { InstanceBulkExportStore() },
        ContractBulkExportStore(name: "SQLiteBulkExportStore") { SQLiteBulkExportStore(database: try StoreFixture.make().store.database) },
    ] + (PostgresFixture.isAvailable ? [ContractBulkExportStore(name: "PostgresBulkExportStore") {
        PostgresBulkExportStore(database: try PostgresFixture.makeDatabase())
    }] : [])
}

/// Bulk export records on every store: read back as written (times to the millisecond), updated only while they
/// exist, beaten only while unfinished, deleted once, swept at their expiry, and gone with an erased patient.
struct BulkExportContractTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000.123)

    static func record(_ n: Int, patient: String? = "alice", expiresIn: TimeInterval? = nil) -> BulkExportRecord {
        BulkExportRecord(id: String(format: "00000000-0000-4000-8000-%012d", n), ownerTokenID: "tok-\(n)", auditPatient: patient,
                         patientCount: patient == nil ? 2 : 1, request: "https://clinic.example/fhir/R4/Patient/alice/$export?_since=Ag",
                         base: "https://clinic.example/fhir/R4", createdAt: now.addingTimeInterval(0.0004), heartbeatAt: now,
                         expiresAt: expiresIn.map { now.addingTimeInterval($0) })
    }

    @Test(arguments: ContractBulkExportStore.all)
    func anExportIsReadBackAsWrittenAndUpdatedWhileItExists(store: ContractBulkExportStore) throws {
        let exports = try store.make()
        var written = Self.record(1)
        try exports.insertExport(written, patients: ["alice"])
        #expect(throws: BulkExportStoreError.alreadyExists) { try exports.insertExport(Self.record(1), patients: ["alice"]) }
        #expect(try exports.export(id: written.id) == written)
        #expect(written.createdAt == SyncRules.date(milliseconds: SyncRules.milliseconds(Self.now)))
        #expect(try exports.export(id: Self.record(2).id) == nil)

        written.phase = .completed
        written.patientsDone = 1; written.resources = 1_200; written.outcome = [0x7b, 0x00, 0xff, 0x7d]
        written.heartbeatAt = Self.now.addingTimeInterval(5); written.expiresAt = Self.now.addingTimeInterval(3600)
        var changed = written
        changed.ownerTokenID = "someone-else"; changed.request = "elsewhere"  // never rewritten
        #expect(try exports.updateExport(changed))
        #expect(try exports.export(id: written.id) == written)
        #expect(try exports.exportIDs() == [written.id])

        #expect(try exports.deleteExport(id: written.id))
        #expect(try !exports.deleteExport(id: written.id))
        #expect(try !exports.updateExport(written))  // a runner's update never revives a cancelled export
        #expect(try exports.export(id: written.id) == nil && exports.exportIDs().isEmpty)
    }

    @Test(arguments: ContractBulkExportStore.all)
    func onlyUnfinishedExportsAreBeaten(store: ContractBulkExportStore) throws {
        let exports = try store.make()
        let queued = Self.record(1), running = Self.record(2)
        var finished = Self.record(3)
        for r in [queued, running, finished] { try exports.insertExport(r, patients: ["alice"]) }
        var moving = running
        moving.phase = .running
        #expect(try exports.updateExport(moving))
        finished.phase = .failed; finished.expiresAt = Self.now.addingTimeInterval(60)
        #expect(try exports.updateExport(finished))
        let later = Self.now.addingTimeInterval(90)
        try exports.beatExports([queued.id, running.id, finished.id, Self.record(4).id], at: later)
        let beat = SyncRules.date(milliseconds: SyncRules.milliseconds(later))
        #expect(try exports.export(id: queued.id)?.heartbeatAt == beat)
        #expect(try exports.export(id: running.id)?.heartbeatAt == beat && exports.export(id: running.id)?.phase == .running)
        #expect(try exports.export(id: finished.id)?.heartbeatAt == finished.heartbeatAt)
        #expect(try exports.export(id: Self.record(4).id) == nil)
    }

    @Test(arguments: ContractBulkExportStore.all)
    func exportsNoInstanceBeatAreMarkedFailedAndThenExpire(store: ContractBulkExportStore) throws {
        let exports = try store.make()
        var beaten = Self.record(1), lost = Self.record(2), finished = Self.record(3)
        for r in [beaten, lost, finished] { try exports.insertExport(r, patients: ["alice"]) }
        finished.phase = .completed; finished.expiresAt = Self.now.addingTimeInterval(7200)
        #expect(try exports.updateExport(finished))
        try exports.beatExports([beaten.id], at: Self.now.addingTimeInterval(100))
        let later = Self.now.addingTimeInterval(180)
        let failed = try exports.failLostExports(beatenBefore: Self.now.addingTimeInterval(99), outcome: [0x7b, 0x7d],
                                                 expiresAt: later.addingTimeInterval(3600), at: later)
        #expect(failed == [lost.id])
        lost.phase = .failed; lost.outcome = [0x7b, 0x7d]
        lost.heartbeatAt = SyncRules.date(milliseconds: SyncRules.milliseconds(later))
        lost.expiresAt = SyncRules.date(milliseconds: SyncRules.milliseconds(later.addingTimeInterval(3600)))
        #expect(try exports.export(id: lost.id) == lost)
        beaten.heartbeatAt = SyncRules.date(milliseconds: SyncRules.milliseconds(Self.now.addingTimeInterval(100)))
        #expect(try exports.export(id: beaten.id) == beaten)
        #expect(try exports.export(id: finished.id) == finished)
        #expect(try exports.deleteExpiredExports(at: later.addingTimeInterval(3600)) == [lost.id])
    }

    @Test(arguments: ContractBulkExportStore.all)
    func theSweepDeletesExactlyTheExpiredExports(store: ContractBulkExportStore) throws {
        let exports = try store.make()
        let soon = Self.record(1, expiresIn: 10), later = Self.record(2, expiresIn: 20), unfinished = Self.record(3)
        for r in [soon, later, unfinished] { try exports.insertExport(r, patients: ["bob", "alice", "bob"]) }
        #expect(try exports.exportPatients(id: soon.id) == ["alice", "bob"], "what it reads, once each, sorted")
        #expect(try exports.deleteExpiredExports(at: Self.now.addingTimeInterval(9.99)).isEmpty)
        #expect(try exports.deleteExpiredExports(at: Self.now.addingTimeInterval(10)) == [soon.id])
        #expect(try exports.exportPatients(id: soon.id) == [] && exports.exportPatients(id: later.id) == ["alice", "bob"])
        #expect(try exports.exportIDs() == [later.id, unfinished.id])
        #expect(try exports.deleteExpiredExports(at: Self.now.addingTimeInterval(10 * 365 * 86_400)) == [later.id])
        #expect(try exports.exportIDs() == [unfinished.id])
    }

    @Test(arguments: ContractBulkExportStore.all)
    func ofConcurrentCancelsOfOneExportExactlyOneDeletesIt(store: ContractBulkExportStore) throws {
        let exports = try store.make()
        for round in 0..<4 {
            try exports.insertExport(Self.record(round), patients: ["alice"])
            let deleted = Atomic(0), failed = Atomic(0)
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do {
                    if try exports.deleteExport(id: Self.record(round).id) { deleted.add(1, ordering: .relaxed) }
                } catch {
                    failed.add(1, ordering: .relaxed)
                }
            }
            #expect(deleted.load(ordering: .relaxed) == 1 && failed.load(ordering: .relaxed) == 0, "round \(round)")
        }
    }

    @Test(arguments: ContractErasureStores.all)
    func anErasureDeletesEveryExportThatReadsThePatientAndNoOther(stores: ContractErasureStores) throws {
        let s = try stores.make()
        for patient in ["erased", "kept"] { try s.access.createPatient(PatientRecord(id: patient, timeZone: "UTC", createdAt: Self.now)) }
        let own = Self.record(1, patient: "erased"), group = Self.record(2, patient: nil), other = Self.record(3, patient: "kept")
        try s.exports.insertExport(own, patients: ["erased"])
        try s.exports.insertExport(group, patients: ["kept", "erased"])
        try s.exports.insertExport(other, patients: ["kept"])
        let receipt = try #require(try s.erasure.erase(ErasureRequest(patient: "erased", tokenID: "admin", time: Self.now)))
        #expect(receipt.count(of: "bulkExports") == 2)
        #expect(try s.exports.exportIDs() == [other.id])
        #expect(try s.exports.export(id: other.id) == other)
    }
}
