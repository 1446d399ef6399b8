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

    @Test func writesQueuedBehindACommitShareTheNextOneAndAFailureRollsBackAlone() async throws {
        let database = try database()
        let before = database.committedTransactions
        let (started, release) = (Shared(false), DispatchSemaphore(value: 0))
        let first = Task {
            try await database.asyncWrite { db in started.set(true); release.wait(); try db.query("INSERT INTO t VALUES (0)") }
        }
        try await Eventually.until { started.current }
        let writes = (1...10).map { id in
            Task {
                try await database.asyncWrite { db in
                    try db.query("INSERT INTO t VALUES ($1)", [.int64(Int64(id))])
                    if id == 5 { throw Fault() }
                }
            }
        }
        try await Eventually.until { database.queuedWrites == 10 }
        release.signal()
        _ = try await first.value
        for (index, write) in writes.enumerated() {
            if index + 1 == 5 { await #expect(throws: Fault.self) { try await write.value } } else { _ = try await write.value }
        }
        #expect(try ids(database) == [0, 1, 2, 3, 4, 6, 7, 8, 9, 10])
        #expect(database.committedTransactions == before + 2)
    }

    @Test func aStatementSentAheadThatFailsFailsItsOwnWriteAlone() async throws {
        let database = try database()
        let before = database.committedTransactions
        let (started, release) = (Shared(false), DispatchSemaphore(value: 0))
        let first = Task {
            try await database.asyncWrite { db in started.set(true); release.wait(); try db.query("INSERT INTO t VALUES (0)") }
        }
        try await Eventually.until { started.current }
        let writes = (1...6).map { id in
            Task {
                try await database.asyncWrite { db in
                    try db.send("INSERT INTO t VALUES ($1)", [.int64(Int64(id))])
                    if id == 3 { try db.send("INSERT INTO t VALUES (0)") }  // fails only once sent, after the body returned
                }
            }
        }
        try await Eventually.until { database.queuedWrites == 6 }
        release.signal()
        _ = try await first.value
        for (index, write) in writes.enumerated() {
            if index + 1 == 3 {
                await #expect { try await write.value } throws: { ($0 as? PostgresError)?.kind == .uniqueViolation }
            } else {
                _ = try await write.value
            }
        }
        #expect(try ids(database) == [0, 1, 2, 4, 5, 6])
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

    @Test func aLostRaceRunsTheWriteAgain() throws {
        let database = try database()
        let runs = Shared(0)
        try database.write { db in
            try db.query("INSERT INTO t VALUES (1)")
            if runs.update { $0 += 1; return $0 } == 1 { throw PostgresError(kind: .serializationFailure, sqlState: "40001", message: "lost") }
        }
        #expect(runs.current == 2)
        #expect(try ids(database) == [1])
    }

    @Test func aConnectionLostBeforeCommitRunsTheWriteAgainOnANewOne() throws {
        let database = try database()
        let runs = Shared(0)
        try database.write { db in
            try db.query("INSERT INTO t VALUES (1)")
            if runs.update { $0 += 1; return $0 } == 1 { try db.query("SELECT pg_terminate_backend(pg_backend_pid())") }
        }
        #expect(runs.current == 2)
        #expect(try ids(database) == [1])
    }

    @Test func aWriteThatFindsTheServerReadOnlyRunsAgainOnANewConnection() throws {
        let database = try database()
        // The writer's session turns read-only, like a session a proxy kept open to a primary demoted by a failover.
        try database.write { db in try db.execute("SET default_transaction_read_only = on") }
        try database.write { db in try db.query("INSERT INTO t VALUES (1)") }
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
