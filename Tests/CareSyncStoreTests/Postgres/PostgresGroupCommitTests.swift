import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncPostgres

/// Writes that arrive together share a transaction, each in its own savepoint; a lost race or a broken
/// connection before `COMMIT` runs the group again.
@Suite(.enabled(if: PostgresFixture.isAvailable, "CARESYNC_TEST_POSTGRES_URL names no server"))
struct PostgresGroupCommitTests {
    struct Fault: Error {}

    func database() throws -> PostgresDatabase {
        let database = try PostgresDatabase(try PostgresFixture.makeConfiguration())
        try database.write { try $0.execute("CREATE TABLE t (id bigint PRIMARY KEY)") }
        return database
    }

    func ids(_ database: PostgresDatabase) throws -> [Int64] {
        try database.read { try $0.query("SELECT id FROM t ORDER BY id").map { try $0.int64(0) } }
    }

    /// Writes 1…`count` by `body`, queued while one write (inserting 0) holds the writer, so they share the next
    /// transaction; returns each one's outcome, in order, once the holder committed.
    func queuedBehindAHeldWrite(_ database: PostgresDatabase, count: Int,
                                _ body: @escaping @Sendable (Int, PostgresConnection) throws -> Void) async throws -> [Result<Void, any Error>] {
        let (started, release) = (Shared(false), DispatchSemaphore(value: 0))
        let first = Task {
            try await database.asyncWrite { db in started.set(true); release.wait(); try db.query("INSERT INTO t VALUES (0)") }
        }
        try await Eventually.until { started.current }
        let writes = (1...count).map { id in Task { try await database.asyncWrite { db in try body(id, db) } } }
        try await Eventually.until { database.queuedWrites == count }
        release.signal()
        _ = try await first.value
        var outcomes: [Result<Void, any Error>] = []
        for write in writes { outcomes.append(await write.result) }
        return outcomes
    }

    @Test func writesQueuedBehindACommitShareTheNextOneAndAFailureRollsBackAlone() async throws {
        let database = try database()
        let before = database.committedTransactions
        let outcomes = try await queuedBehindAHeldWrite(database, count: 10) { id, db in
            try db.query("INSERT INTO t VALUES ($1)", [.int64(Int64(id))])
            if id == 5 { throw Fault() }
        }
        for (index, outcome) in outcomes.enumerated() {
            if index + 1 == 5 { #expect(throws: Fault.self) { try outcome.get() } } else { try outcome.get() }
        }
        #expect(try ids(database) == [0, 1, 2, 3, 4, 6, 7, 8, 9, 10])
        #expect(database.committedTransactions == before + 2)
    }

    @Test func aStatementSentAheadThatFailsFailsItsOwnWriteAlone() async throws {
        let database = try database()
        let before = database.committedTransactions
        let outcomes = try await queuedBehindAHeldWrite(database, count: 6) { id, db in
            try db.send("INSERT INTO t VALUES ($1)", [.int64(Int64(id))])
            if id == 3 { try db.send("INSERT INTO t VALUES (0)") }  // fails only once sent, after the body returned
            if id == 5 { throw Fault() }  // before anything of it was sent
        }
        for (index, outcome) in outcomes.enumerated() {
            if index + 1 == 3 {
                #expect { try outcome.get() } throws: { ($0 as? PostgresError)?.kind == .uniqueViolation }
            } else if index + 1 == 5 {
                #expect(throws: Fault.self) { try outcome.get() }
            } else {
                try outcome.get()
            }
        }
        #expect(try ids(database) == [0, 1, 2, 4, 6])
        #expect(database.committedTransactions == before + 2)
    }

    @Test func aQuerySeesWhatWasSentAheadOfItAndSendsItInOrder() throws {
        let database = try database()
        let seen = try database.write { db in
            try db.send("INSERT INTO t VALUES (1)")
            try db.send("INSERT INTO t SELECT max(id) + 1 FROM t")
            return try db.query("SELECT count(*), max(id) FROM t").first { (try $0.int64(0), try $0.int64(1)) }
        }
        #expect(seen?.0 == 2 && seen?.1 == 2)
        #expect(try ids(database) == [1, 2])
    }

    @Test func aQueueLongerThanOnePipelineGoesInSeveralAndKeepsItsOrder() throws {
        let database = try database()
        let count = PostgresConnection.longestPipeline * 3 + 7
        let last = try database.write { db in
            try db.send("INSERT INTO t VALUES (1)")
            for _ in 1..<count { try db.send("INSERT INTO t SELECT max(id) + 1 FROM t") }
            return try db.query("SELECT max(id) FROM t").first { try $0.int64(0) }
        }
        #expect(last == Int64(count))
        #expect(try ids(database) == Array(1...Int64(count)))
    }

    @Test func aLostRaceRunsTheWriteAgain() throws {
        let database = try database()
        let runs = Shared(0)
        try database.write { db in
            try db.query("INSERT INTO t VALUES (1)")
            if runs.update({ $0 += 1; return $0 }) == 1 { throw PostgresError(kind: .serializationFailure, sqlState: "40001", message: "lost") }
        }
        #expect(runs.current == 2)
        #expect(try ids(database) == [1])
    }

    @Test func aConnectionLostBeforeCommitRunsTheWriteAgainOnANewOne() throws {
        let database = try database()
        let runs = Shared(0)
        try database.write { db in
            try db.query("INSERT INTO t VALUES (1)")
            if runs.update({ $0 += 1; return $0 }) == 1 { try db.query("SELECT pg_terminate_backend(pg_backend_pid())") }
        }
        #expect(runs.current == 2)
        #expect(try ids(database) == [1])
    }

    @Test func aWriteThatFindsTheServerReadOnlyRunsAgainOnANewConnection() throws {
        let database = try database()
        // The writer's session turns read-only, like a session a proxy kept open to a primary demoted by a failover.
        try database.write { db in try db.execute("SET default_transaction_read_only = on") }
        _ = try database.write { db in try db.query("INSERT INTO t VALUES (1)") }
        #expect(try ids(database) == [1])
    }

    @Test func aBodyThatSwallowsAStatementErrorFailsAndLeavesNothing() throws {
        let database = try database()
        #expect(throws: PostgresError.self) {
            try database.write { db in
                try db.query("INSERT INTO t VALUES (1)")
                _ = try? db.query("INSERT INTO t VALUES (1)")
            }
        }
        #expect(try ids(database) == [])
    }
}
