import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncPostgres

/// An erasure on one instance and sync writes on another, on one database: no write stores rows under the erased id,
/// whether it began before the erasure (the erasure waits for it and removes its rows) or after it (refused), and an
/// instance that already wrote for the patient learns of the erasure (`PostgresErasedPatients`).
@Suite(.enabled(if: PostgresFixture.isAvailable, "CARESYNC_TEST_POSTGRES_URL names no server"))
struct PostgresErasureRaceTests {
    static let t0 = Date(timeIntervalSince1970: 1_592_474_400)

    /// Two instances and the patient `p`, as the access store creates one.
    static func instancesWithPatient(_ name: String) throws -> (writer: PostgresSyncStore, eraser: PostgresErasureStore, other: PostgresSyncStore) {
        let stores = try PostgresConcurrencyTests.instances(2, name: name)
        try PostgresAccessStore(database: stores[1].database).createPatient(PatientRecord(id: "p", timeZone: "UTC", createdAt: t0))
        return (stores[0], PostgresErasureStore(database: stores[1].database), stores[1])
    }

    static func sample(_ id: String) -> SampleInput {
        SampleInput(type: .stepCount, value: 12, start: t0, end: t0 + 60, syncIdentifier: id, syncVersion: 1)
    }

    /// The writing instance wrote for `p` before (so it knows the erasure count then); after the erasure through the other
    /// instance, its next write is refused and nothing of it is stored.
    @Test func aWriteAfterAnErasureOnAnotherInstanceIsRefused() throws {
        let (writer, eraser, other) = try Self.instancesWithPatient("erase-after-" + UUID().uuidString.prefix(8))
        _ = try writer.upsert([Self.sample("before")], patient: "p", source: "watch", now: Self.t0)
        _ = try #require(try eraser.erase(ErasureRequest(patient: "p", tokenID: "admin", time: Self.t0)))
        #expect(throws: ErasedPatientWrite(patient: "p")) {
            try writer.upsert([Self.sample("after")], patient: "p", source: "watch", now: Self.t0)
        }
        #expect(try other.changes(ChangeQuery(patient: "p", limit: 10)).samples.isEmpty)
        // Another patient's writes go on.
        #expect(try writer.upsert([Self.sample("other")], patient: "q", source: "watch", now: Self.t0).results.count == 1)
    }

    /// Runs `write` on a thread of its own until it has written (it calls its argument then, and waits), starts the
    /// erasure of `p` through `eraser`, checks that the erasure waits, lets the write commit; answers the receipt.
    static func eraseDuring(_ eraser: PostgresErasureStore,
                            _ write: @escaping @Sendable (_ written: () -> Void) throws -> Void) async throws -> ErasureReceipt {
        // Waits off the cooperative pool only: a semaphore waited on here could hold the thread the write's task needs.
        let inside = Shared(false), release = DispatchSemaphore(value: 0)
        let erased = Shared(false)
        async let written: Void = onDedicatedThread { try write { inside.update { $0 = true }; release.wait() } }
        while !inside.update({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        async let receipt = onDedicatedThread { () -> ErasureReceipt? in
            defer { erased.update { $0 = true } }
            return try eraser.erase(ErasureRequest(patient: "p", tokenID: "admin", time: t0))
        }
        try await Task.sleep(for: .milliseconds(500))
        #expect(!erased.update { $0 }, "the erasure committed while a write for the patient was under way")
        release.signal()
        try await written
        return try #require(try await receipt)
    }

    /// A sync write holding the head row when the erasure starts: the erasure waits for its commit, then removes its rows.
    @Test func anErasureWaitsForTheSyncWriteUnderWayAndRemovesItsRows() async throws {
        let (writer, eraser, other) = try Self.instancesWithPatient("erase-during-" + UUID().uuidString.prefix(8))
        let receipt = try await Self.eraseDuring(eraser) { written in
            let outcomes = try writer.write { w in
                let results = try w.upsert([Self.sample("during")], patient: "p", source: "watch", now: Self.t0)
                written()
                return results.map(\.outcome)
            }
            #expect(outcomes == [.inserted])
        }
        #expect(receipt.count(of: "samples") == 1)
        #expect(try other.changes(ChangeQuery(patient: "p", limit: 10)).samples.isEmpty)
    }

    /// Another write keyed by patient (a goal) that checked the id first holds the patient's row: the erasure waits for
    /// it, then removes the goal (`PatientEraser.refuseErased`, as the monitoring store's writes call it).
    @Test func anErasureWaitsForAGoalWrittenUnderWayAndRemovesIt() async throws {
        let (writer, eraser, _) = try Self.instancesWithPatient("erase-goal-" + UUID().uuidString.prefix(8))
        let receipt = try await Self.eraseDuring(eraser) { written in
            try writer.database.write { db in
                try PostgresErasureStore.eraser.refuseErased(db, "p")
                try db.query("INSERT INTO patient_goals (patient_id, kind, target, set_by, set_at) VALUES ('p', 'dailySteps', 5000, 't', 0)")
                written()
            }
        }
        #expect(receipt.count(of: "goals") == 1)
        #expect(try PostgresMonitoringStore(database: writer.database).goals(patient: "p").isEmpty)
    }
}
