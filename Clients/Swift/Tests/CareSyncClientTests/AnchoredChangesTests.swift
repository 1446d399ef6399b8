import Foundation
import Testing
@testable import CareSyncClient

/// The feed from a persisted anchor: saving after applying, crashes, resets, live mode.
@Suite struct AnchoredChangesTests {
    /// A fresh anchor file in a temporary directory.
    static func anchorFile() throws -> URL {
        let dir = try ScratchFolder.make("anchor")
        return dir.appendingPathComponent("anchor")
    }

    @Test func aCrashBetweenApplyingAndSavingRedeliversThePage() async throws {
        let server = try LiveServer()
        let device = server.device()
        _ = try await device.push(patient: "alice", samples: Story.steps(1200))
        let store = FileAnchorStore(url: try Self.anchorFile())
        var replica = Replica()

        // First run: apply page 1, ask for page 2 (page 1's anchor is saved), apply page 2, crash.
        var run1 = device.anchoredChanges(patient: "alice", store: store, limit: 500).makeAsyncIterator()
        guard case .page(let page1, _, let anchor1)? = try await run1.next() else { Issue.record("no page 1"); return }
        #expect(try await store.load() == nil, "an anchor was saved before its page was applied")
        replica.apply(page1, [])
        guard case .page(let page2, _, _)? = try await run1.next() else { Issue.record("no page 2"); return }
        #expect(try await store.load() == anchor1)
        replica.apply(page2, [])
        _ = run1   // the process dies here, before asking for page 3

        // Second run from the same file: page 2 comes again, then the rest; nothing lost.
        var redelivered: [Sample] = []
        var first = true
        for try await event in device.anchoredChanges(patient: "alice", store: FileAnchorStore(url: store.url), limit: 500) {
            if first, case .page(let samples, _, _) = event { redelivered = samples }
            first = false
            replica.apply(event)
        }
        #expect(redelivered.map(\.uuid).elementsEqual(page2.map(\.uuid)), "page 2 was not re-delivered")
        #expect(replica.samples.count == 1200)
        #expect(replica.deliveries.values.filter { $0 == 2 }.count == page2.count)
        #expect(try await Story.serverSamples(device) == replica.samples)
    }

    @Test func anchorExpiredAfterATombstonePurgeResetsAndTheReplicaEndsEqual() async throws {
        let sqlite = URL(fileURLWithPath: ProcessInfo.processInfo.environment["SQLITE3_BIN"] ?? "/usr/bin/sqlite3")
        try #require(FileManager.default.isExecutableFile(atPath: sqlite.path), "needs the sqlite3 shell to age tombstones")
        let server = try LiveServer()
        var device = server.device()
        _ = try await device.push(patient: "alice", samples: Story.steps(30))
        let store = FileAnchorStore(url: try Self.anchorFile())
        var replica = Replica()
        for try await event in device.anchoredChanges(patient: "alice", store: store) { replica.apply(event) }
        #expect(replica.samples.count == 30)

        // Deletions the replica has not seen, then a purge of their tombstones: stop, age them 100 days,
        // restart (the retention job runs at start with the default 90 days).
        let deleted = try await device.delete(patient: "alice", syncIdentifiers: (0..<10).map { "steps-\($0)" })
        #expect(deleted.results.allSatisfy { $0.outcome == .deleted })
        _ = try await device.push(patient: "alice", samples: Story.steps(5, prefix: "late"))
        server.stop()
        try LiveServer.run([server.database.path, "UPDATE tombstones SET deleted_at_ms = deleted_at_ms - 100 * 86400000;"],
                           [:], executable: sqlite)
        try server.start()
        device = server.device()
        for _ in 0..<100 {
            if try await server.metric("caresync_retention_tombstones_purged_total") >= 10 { break }
            try await Task.sleep(for: .milliseconds(50))
        }

        var resets: [String] = []
        for try await event in device.anchoredChanges(patient: "alice", store: store) {
            if case .reset(let problem) = event { resets.append(problem.code) }
            replica.apply(event)
        }
        #expect(resets == ["anchorExpired"])
        #expect(replica.samples.count == 25)
        #expect(try await Story.serverSamples(device) == replica.samples)
        #expect(try await store.load() != nil)
    }

    @Test func invalidAnchorFromAnotherDatabaseResets() async throws {
        // A replica synced against another database (say, a server replaced without its data).
        let other = try LiveServer()
        _ = try await other.device().push(patient: "alice", samples: Story.steps(3, prefix: "other"))
        let store = MemoryAnchorStore()
        var replica = Replica()
        for try await event in other.device().anchoredChanges(patient: "alice", store: store) { replica.apply(event) }
        #expect(replica.samples.count == 3)
        #expect(try await store.load() != nil)
        other.stop()

        let server = try LiveServer()
        let device = server.device()
        _ = try await device.push(patient: "alice", samples: Story.steps(7))
        var resets: [String] = []
        for try await event in device.anchoredChanges(patient: "alice", store: store) {
            if case .reset(let problem) = event { resets.append(problem.code) }
            replica.apply(event)
        }
        #expect(resets == ["invalidAnchor"])
        #expect(replica.samples.count == 7)
        #expect(try await Story.serverSamples(device) == replica.samples)
    }

    @Test func liveModeLongPollsAndDeliversAWriteMadeWhileWaiting() async throws {
        let server = try LiveServer()
        let device = server.device()
        _ = try await device.push(patient: "alice", samples: Story.steps(2))
        var live = device.anchoredChanges(patient: "alice", store: MemoryAnchorStore(), wait: 20).makeAsyncIterator()
        guard case .page(let initial, _, _)? = try await live.next() else { Issue.record("no first page"); return }
        #expect(initial.count == 2)
        let writer = Task {
            try await Task.sleep(for: .milliseconds(500))
            _ = try await device.push(patient: "alice", samples: Story.steps(1, prefix: "live"))
        }
        let started = ContinuousClock.now
        guard case .page(let pushed, _, _)? = try await live.next() else { Issue.record("no live page"); return }
        try await writer.value
        #expect(pushed.map(\.syncIdentifier) == ["live-0"])
        #expect(ContinuousClock.now - started < .seconds(15))
    }
}
