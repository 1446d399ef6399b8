import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncPostgres

/// Sync writes that share a transaction leave their bookkeeping (head, checksums, day figures, commit time, audit) to the
/// group, written once before its `COMMIT`: a write rolled back to its savepoint must leave none of it behind, and
/// the writes after it number on from the kept ones.
@Suite(.enabled(if: PostgresFixture.isAvailable, "CARESYNC_TEST_POSTGRES_URL names no server"))
struct PostgresWriteGroupTests {
    struct Fault: Error {}

    static let zone = TimeZone(identifier: "UTC")!

    /// Sample `index` of the test: a step count one hour after the last, so each write counts on its own.
    static func input(_ index: Int) -> SampleInput {
        Contract.makeInput(uuid: UUID(), value: Double(10 * index), start: Contract.t0.addingTimeInterval(Double(index) * Contract.hour))
    }

    @Test func aWriteRolledBackInsideAGroupLeavesNoFiguresAndTheNextNumbersOnFromTheKept() async throws {
        let grouped = try PostgresFixture.makeStore(), alone = try PostgresFixture.makeStore()
        let inputs = (1...6).map(Self.input)
        // The 2nd throws in its body; the 4th fails only once its statements are sent, after it staged its part.
        let failing: Set<Int> = [2, 4]
        let before = grouped.database.committedTransactions
        // One write holds the writer while the six queue behind it, so they share the next transaction.
        let (started, release) = (Shared(false), DispatchSemaphore(value: 0))
        let blocker = Task { try await grouped.database.asyncWrite { _ in started.set(true); release.wait() } }
        try await Eventually.until { started.current }
        var writes: [Task<Int64, any Error>] = []
        for (index, input) in inputs.enumerated() {
            writes.append(Task {
                try await grouped.asyncWriteRows { writer in
                    _ = try writer.upsert([input], patient: Contract.patient, source: Contract.device, now: Contract.t0)
                    try writer.appendAudit(AuditRecord(time: Contract.t0, tokenID: "write-\(index + 1)", role: .device,
                                                       patient: Contract.patient, action: "samples.upsert", count: 1, status: 200))
                    if index + 1 == 2 { throw Fault() }
                    if index + 1 == 4 { try writer.db.send("SELECT 1 / 0") }
                    return try writer.headAnchor().sequence
                }
            })
            try await Eventually.until { grouped.database.queuedWrites == index + 1 }  // queued in this order
        }
        release.signal()
        try await blocker.value
        var anchors: [Int64] = []
        for (index, write) in writes.enumerated() {
            if failing.contains(index + 1) { await #expect(throws: (any Error).self) { try await write.value } } else { anchors.append(try await write.value) }
        }
        #expect(grouped.database.committedTransactions == before + 2, "the six did not share one transaction")
        #expect(anchors == [1, 2, 3, 4], "the writes after the rolled-back ones did not number on from the kept ones")
        #expect(try grouped.currentAnchor().sequence == 4)

        // The same kept writes, each alone in its own transaction, on a store of their own.
        for (index, input) in inputs.enumerated() where !failing.contains(index + 1) {
            _ = try alone.upsert([input], patient: Contract.patient, source: Contract.device, now: Contract.t0)
        }
        let read = try Contract.readAll(grouped)
        #expect(read.samples.map(\.uuid) == inputs.enumerated().filter { !failing.contains($0.offset + 1) }.map { $0.element.uuid! })
        #expect(try grouped.checksums(patient: Contract.patient, at: nil).types == alone.checksums(patient: Contract.patient, at: nil).types)
        let (first, last) = (CalendarDay(year: 2020, month: 6, day: 1), CalendarDay(year: 2020, month: 6, day: 30))
        let days = try grouped.sampleDays(patient: Contract.patient, zone: Self.zone, from: first, through: last)
        #expect(!days.isEmpty)
        #expect(days == (try alone.sampleDays(patient: Contract.patient, zone: Self.zone, from: first, through: last)))
        let audit = try PostgresAccessStore(database: grouped.database).audit(AuditQuery(patient: Contract.patient))
        #expect(audit.map(\.tokenID) == ["write-6", "write-5", "write-3", "write-1"], "newest first, the kept writes' only")
        #expect(try grouped.writeTime(of: 4) != nil, "the group's commit time was not recorded at its head")
    }

    @Test func aGroupWhoseOpeningWriteRolledBackTakesTheHeadRowAgain() async throws {
        // Two instances on one database. On A, the write that opens the group (and takes the head row in its
        // savepoint) rolls back, which releases the row; B then commits a change; A's next write must number after it.
        let configuration = try PostgresFixture.makeConfiguration()
        let setup = try PostgresDatabase(configuration)
        try PostgresMigrator(directory: PostgresFixture.migrationsURL).migrate(setup)
        let a = try PostgresSyncStore(database: PostgresDatabase(configuration))
        let b = try PostgresSyncStore(database: PostgresDatabase(configuration))
        let (started, release) = (Shared(false), DispatchSemaphore(value: 0))
        let blocker = Task { try await a.database.asyncWrite { _ in started.set(true); release.wait() } }
        try await Eventually.until { started.current }
        let opening = Task {
            try await a.asyncWriteRows { writer in
                _ = try writer.upsert([Self.input(1)], patient: Contract.patient, source: Contract.device, now: Contract.t0)
                throw Fault()
            }
        }
        try await Eventually.until { a.database.queuedWrites == 1 }
        let other = Task {
            // B commits while A's transaction is open, between A's rolled-back write and its next.
            try await a.database.asyncWrite { _ in
                _ = try b.upsert([Self.input(2)], patient: Contract.patient, source: Contract.device, now: Contract.t0)
            }
        }
        try await Eventually.until { a.database.queuedWrites == 2 }
        let next = Task {
            try await a.asyncWriteRows { writer in
                _ = try writer.upsert([Self.input(3)], patient: Contract.patient, source: Contract.device, now: Contract.t0)
                return try writer.headAnchor().sequence
            }
        }
        try await Eventually.until { a.database.queuedWrites == 3 }
        release.signal()
        try await blocker.value
        await #expect(throws: Fault.self) { try await opening.value }
        try await other.value
        #expect(try await next.value == 2, "A numbered from the head it read before B's commit")
        let read = try Contract.readAll(a)
        #expect(read.samples.map(\.value) == [20, 30])
        #expect(try a.currentAnchor().sequence == 2)
    }
}
