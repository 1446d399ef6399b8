import CareSyncCore
import CareSyncReferenceModel
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncPostgres

/// The ordering scheme (`ChangeOrdering`): two instances on one database; A takes its sequence first and
/// commits last, B commits in between, and a reader pages while A is still open. The reader must end up
/// with both changes. The negative control runs the same script on a plain sequence and must lose A's.
@Suite(.enabled(if: PostgresFixture.isAvailable, "CARESYNC_TEST_POSTGRES_URL names no server"))
struct ChangeOrderingTests {
    /// What the reader saw over its two pages, and what the two writers wrote.
    struct Outcome {
        var seen: [UUID]
        var written: Set<UUID>
    }

    /// One run of the script with `ordering`.
    static func race(_ ordering: ChangeOrdering) async throws -> Outcome {
        var configuration = try PostgresFixture.makeConfiguration()
        let setup = try PostgresDatabase(configuration)
        try PostgresMigrator(directory: PostgresFixture.migrationsURL).migrate(setup)
        try setup.write { db in try db.execute("CREATE SEQUENCE plain_change_seq") }
        configuration.applicationName = "ordering-a"
        let a = try PostgresSyncStore(database: PostgresDatabase(configuration), ordering: ordering)
        configuration.applicationName = "ordering-b-\(UUID().uuidString.prefix(8))"
        let b = try PostgresSyncStore(database: PostgresDatabase(configuration), ordering: ordering)
        let bName = configuration.applicationName
        let patient = "p", now = Date(timeIntervalSince1970: 1_600_000_000)
        let sample = SampleInput(type: .stepCount, value: 1, start: now, end: now + 60)

        // A: takes its sequence, then holds its transaction open until released.
        let aHolds = DispatchSemaphore(value: 0), releaseA = DispatchSemaphore(value: 0)
        let aWrite = Task.detached {
            try await onDedicatedThread {
                try a.write { w in
                    let result = try w.upsert([sample], patient: patient, source: "s", now: now)
                    aHolds.signal()
                    releaseA.wait()
                    return result[0].uuid
                }
            }
        }
        try await onDedicatedThread { aHolds.wait() }

        // B: writes while A is open; it commits first (plain sequence) or waits for A's turn (head row).
        let bDone = Shared(false)
        let bWrite = Task.detached {
            try await onDedicatedThread {
                defer { bDone.set(true) }
                return try b.upsert([sample], patient: patient, source: "s", now: now).results[0].uuid
            }
        }
        do {
            try await Eventually.until { try bDone.current || Self.waitsOnALock(setup, applicationName: bName) }
        } catch {
            releaseA.signal()  // so A's thread ends with the failed test
            throw error
        }

        // The reader pages now, while A is open, then again from the anchor it was given.
        let first = try a.changes(ChangeQuery(patient: patient, anchor: nil))
        releaseA.signal()
        let written: Set<UUID> = [try await aWrite.value, try await bWrite.value]
        let second = try a.changes(ChangeQuery(patient: patient, anchor: first.anchor))
        return Outcome(seen: (first.samples + second.samples).map(\.uuid), written: written)
    }

    /// Whether the connection named `applicationName` is waiting for a lock (B queued behind A's head row).
    static func waitsOnALock(_ database: PostgresDatabase, applicationName: String) throws -> Bool {
        try database.withConnection { db in
            try db.query("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
                         [.text(applicationName)]).first { try $0.int64(0) } == 1
        }
    }

    @Test func aChangeCommittedAfterALaterNumberedOneIsNeverSkipped() async throws {
        let outcome = try await Self.race(.headRow)
        #expect(outcome.seen.count == 2)
        #expect(Set(outcome.seen) == outcome.written)
    }

    @Test func negativeControlAPlainSequenceSkipsIt() async throws {
        let outcome = try await Self.race(.plainSequence)
        #expect(outcome.seen.count == 1, "a plain sequence should lose A's change behind the reader's anchor")
        #expect(Set(outcome.seen) != outcome.written)
    }
}
