import CareSyncTestSupport
import CareSyncReferenceModel
import Foundation
import Testing
@testable import CareSyncStore

/// Concurrent `Database.write` calls share commits, and each still stands or falls alone.
@Suite struct GroupCommitTests {
    struct Planned: Error, Equatable { let name: String }

    /// What each writer got back.
    final class Outcomes: Sendable {
        private let byName = Shared<[String: Result<Int64, Planned>]>([:])
        func set(_ name: String, _ result: Result<Int64, Planned>) { byName.update { $0[name] = result } }
        subscript(_ name: String) -> Result<Int64, Planned>? { byName.current[name] }
    }

    /// A database with `t (x INTEGER UNIQUE)`, and a leader write held open until `release` is signalled,
    /// so the writes started meanwhile queue up behind it in the order they were started.
    struct Lineup {
        let directory: TemporaryDirectory
        let database: Database
        let release = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let outcomes = Outcomes()

        init() throws {
            directory = try TemporaryDirectory("caresync-group")
            database = try Database(path: directory.path("g.sqlite"))
            try database.writeWithoutTransaction { try $0.execute("CREATE TABLE t (x INTEGER UNIQUE)") }
            let release = self.release, leading = DispatchSemaphore(value: 0)
            start("leader") { db in
                try db.execute("INSERT INTO t VALUES (0)")
                leading.signal()
                release.wait()
                return 0
            }
            leading.wait()
        }

        /// Starts a writer on a thread of its own and returns once it is running `write`.
        func start(_ name: String, _ body: @escaping @Sendable (Connection) throws -> Int64) {
            let database = self.database, outcomes = self.outcomes
            done.enter()
            Thread { [done] in
                do {
                    outcomes.set(name, .success(try database.write(body)))
                } catch let error as Planned {
                    outcomes.set(name, .failure(error))
                } catch {
                    outcomes.set(name, .failure(Planned(name: "unexpected \(error)")))
                }
                done.leave()
            }.start()
        }

        /// Starts a writer that inserts `x` and then does `then`, and waits until it is queued.
        func queue(_ name: String, x: Int64, then: @escaping @Sendable (Connection) throws -> Void = { _ in }) {
            let before = database.queuedWrites
            start(name) { db in
                try db.execute("INSERT INTO t VALUES (?)", [.integer(x)])
                try then(db)
                return x
            }
            wait(queued: before + 1)
        }

        /// Polls until `count` writes wait behind the leader (the leader itself is never queued).
        func wait(queued count: Int) {
            let deadline = Date().addingTimeInterval(30)
            while database.queuedWrites < count, Date() < deadline { usleep(1_000) }
        }

        /// Lets the leader commit and waits for every writer.
        func finish() -> [Int64] {
            release.signal()
            done.wait()
            return (try? database.read { db in try db.fetchAll("SELECT x FROM t ORDER BY x") { $0.int64(0) } }) ?? [-1]
        }
    }

    @Test func writesQueuedBehindACommitShareTheNextOne() async throws {
        try await onDedicatedThread {
            let lineup = try Lineup()
            for x in Int64(1)...8 { lineup.queue("w\(x)", x: x) }
            let rows = lineup.finish()
            #expect(rows == Array(0...8))
            for x in 1...8 { #expect(lineup.outcomes["w\(x)"] == .success(Int64(x))) }
            // The leader's transaction, then one for all eight that waited: two commits for nine writes.
            #expect(lineup.database.committedTransactions == 2)
        }
    }

    @Test func aWriteThatThrowsRollsBackAloneWithinItsGroup() async throws {
        try await onDedicatedThread {
            let lineup = try Lineup()
            lineup.queue("a", x: 1)
            lineup.queue("b", x: 2) { _ in throw Planned(name: "b") }
            lineup.queue("c", x: 3)
            lineup.queue("dup", x: 1)  // UNIQUE violation against a's row in the same transaction
            lineup.queue("d", x: 4)
            let rows = lineup.finish()
            #expect(rows == [0, 1, 3, 4])
            #expect(lineup.outcomes["a"] == .success(1))
            #expect(lineup.outcomes["b"] == .failure(Planned(name: "b")))
            #expect(lineup.outcomes["c"] == .success(3))
            #expect(lineup.outcomes["d"] == .success(4))
            if case .failure(let e) = lineup.outcomes["dup"] { #expect(e.name.contains("UNIQUE")) }
            else { Issue.record("the duplicate insert did not fail") }
            #expect(lineup.database.committedTransactions == 2)
        }
    }

    @Test func aWriteThatLosesTheTransactionFailsTheWritesItHeld() async throws {
        try await onDedicatedThread {
            let lineup = try Lineup()
            lineup.queue("a", x: 1)
            // As SQLite does on an I/O error or a full disk: the whole transaction is rolled back.
            lineup.queue("b", x: 2) { db in try db.execute("ROLLBACK"); throw Planned(name: "b") }
            lineup.queue("c", x: 3)
            let rows = lineup.finish()
            #expect(rows == [0, 3])
            #expect(lineup.outcomes["a"] == .failure(Planned(name: "b")))  // a's row went with the transaction
            #expect(lineup.outcomes["b"] == .failure(Planned(name: "b")))
            #expect(lineup.outcomes["c"] == .success(3))
            // The leader's, and a new one for c.
            #expect(lineup.database.committedTransactions == 2)
        }
    }

    @Test func asynchronousWritesJoinTheGroupsOfBlockingOnes() async throws {
        let lineup = try await onDedicatedThread { try Lineup() }
        let database = lineup.database
        let tasks = (Int64(1)...6).map { x in
            Task {
                try await database.asyncWrite { db -> Int64 in
                    try db.execute("INSERT INTO t VALUES (?)", [.integer(x)])
                    if x == 3 { throw Planned(name: "three") }
                    return x
                }
            }
        }
        try await onDedicatedThread {
            lineup.wait(queued: 6)
            lineup.queue("blocking", x: 7)
        }
        let rows = try await onDedicatedThread { lineup.finish() }
        for (x, task) in zip(Int64(1)...6, tasks) {
            if x == 3 {
                await #expect(throws: Planned(name: "three")) { try await task.value }
            } else {
                #expect(try await task.value == x)
            }
        }
        #expect(rows == [0, 1, 2, 4, 5, 6, 7])
        #expect(lineup.outcomes["blocking"] == .success(7))
        // The leader's transaction, then one for the six asynchronous writes and the blocking one.
        #expect(database.committedTransactions == 2)
    }
}
