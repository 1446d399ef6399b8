import CareSyncCore
import CareSyncHTTP
import CareSyncLocking
import Foundation
import Testing
@testable import CareSyncServer

/// `AuditLog` gathers the records that come while a write is under way into the next write, and answers each
/// request only after the write holding its record returned.
@Suite struct AuditGatheringTests {
    /// A record told apart by its token id.
    static func record(_ n: Int) -> AuditRecord {
        AuditRecord(time: Date(timeIntervalSince1970: 1_600_000_000), tokenID: "t\(n)", role: .device, patient: "p1",
                    action: "changes.read", count: 1, status: 200)
    }

    /// The writes a log made (the token ids of each), and the records whose write has returned.
    final class Writes: Sendable {
        let batches = Locked<[[String]]>([])
        let durable = Locked<Set<String>>([])
    }

    /// Returns once `started` says the first write is under way (so the records after it must gather).
    static func untilStarted(_ started: Locked<Bool>) async throws {
        while !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
    }

    @Test func recordsThatComeDuringAWriteShareTheNext() async throws {
        let writes = Writes()
        let started = Locked(false)
        let log = AuditLog { records in
            started.withLock { $0 = true }
            try await Task.sleep(for: .milliseconds(30))
            writes.batches.withLock { $0.append(records.map(\.tokenID)) }
            writes.durable.withLock { $0.formUnion(records.map(\.tokenID)) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<100 {
                group.addTask {
                    try await log.commit(Self.record(n))
                    // Answered only once its record's write returned.
                    #expect(writes.durable.withLock { $0.contains("t\(n)") })
                }
                if n == 0 { try await Self.untilStarted(started) }  // the first write is under way
            }
            try await group.waitForAll()
        }
        let batches = writes.batches.withLock { $0 }
        #expect(batches.flatMap { $0 }.sorted() == (0..<100).map { "t\($0)" }.sorted())
        #expect(batches.count <= 3, "100 records in \(batches.count) writes")
        #expect(batches.first == ["t0"])
    }

    @Test func aFailedWriteAnswersEachOfItsRequests503() async throws {
        struct DiskFull: Error {}
        let calls = Locked(0)
        let started = Locked(false)
        let log = AuditLog { _ in
            calls.withLock { $0 += 1 }
            started.withLock { $0 = true }
            try await Task.sleep(for: .milliseconds(20))
            throw DiskFull()
        }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for n in 0..<20 {
                group.addTask {
                    do { try await log.commit(Self.record(n)); return 200 } catch let error as HTTPError { return Int(error.status.code) }
                }
                if n == 0 { try await Self.untilStarted(started) }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 503, count: 20))
        #expect(calls.withLock { $0 } < 20)
        // The log is idle again and writes the next record alone.
        let next = AuditLog { records in #expect(records.count == 1) }
        try await next.commit(Self.record(99))
    }
}
