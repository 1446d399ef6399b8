import CareSyncCore
import Foundation
import Testing
@testable import CareSyncPostgres

/// The libpq layer: values both ways, typed errors, transactions, the pool and group commit.
@Suite(.enabled(if: PostgresFixture.isAvailable, "CARESYNC_TEST_POSTGRES_URL names no server"))
struct PostgresConnectionTests {
    func connection() throws -> PostgresConnection { try PostgresDatabase.open(try PostgresFixture.makeConfiguration()) }

    @Test func everyValueRoundTripsInBinaryAndText() throws {
        let db = try connection()
        let uuid = UUID()
        let row = try #require(try db.query("""
            SELECT $1::bigint, $2::float8, $3::text, $4::bytea, $5::bool, $6::uuid, $7::bigint, $8::integer, $9::date::text, $10::bytea
            """, [.int64(-42), .double(0.1), .text("é?"), .bytes([0, 255, 7]),
                  .bool(true), .uuid(uuid), .null, .text("7"), .text("2020-06-18"), .bytes([])]).first { $0 })
        #expect(try row.int64(0) == -42)
        #expect(try row.double(1) == 0.1)
        #expect(try row.string(2) == "é?")
        #expect(try row.bytes(3) == [0, 255, 7])
        #expect(try row.bool(4))
        #expect(try row.uuid(5) == uuid)
        #expect(row.isNull(6))
        #expect(try row.optionalInt64(6) == nil)
        #expect(try row.int64(7) == 7)                 // a text parameter, typed by the server
        #expect(try row.string(8) == "2020-06-18")
        #expect(try row.bytes(9) == [])                // empty, not NULL
        #expect(throws: PostgresError.self) { try row.string(0) }  // a bigint is not text
    }

    @Test func arraysRoundTripInBinaryWithNullsAndEmpty() throws {
        let db = try connection()
        func elements(_ value: PostgresValue, _ type: String) throws -> [String?] {
            try db.query("SELECT x::text FROM unnest($1::\(type)[]) WITH ORDINALITY AS t(x, n) ORDER BY n", [value])
                .map { try $0.optionalString(0) }
        }
        let uuid = UUID()
        #expect(try elements(.array(["a", nil, "é?", ""] as [String?]), "text") == ["a", nil, "é?", ""])
        #expect(try elements(.array([Int64.min, nil, 7] as [Int64?]), "bigint") == ["-9223372036854775808", nil, "7"])
        #expect(try elements(.array([0.5, nil] as [Double?]), "float8") == ["0.5", nil])
        #expect(try elements(.array([true, false]), "boolean") == ["true", "false"])
        #expect(try elements(.array([uuid]), "uuid") == [uuid.uuidString.lowercased()])
        #expect(try elements(.array([] as [String?]), "text") == [])
        #expect(try db.query("SELECT cardinality($1::bigint[])", [.array([] as [Int64?])]).first { try $0.int64(0) } == 0)
    }

    @Test func errorsSayWhatKindTheyAre() throws {
        let db = try connection()
        try db.execute("CREATE TABLE t (id bigint PRIMARY KEY)")
        try db.query("INSERT INTO t VALUES ($1)", [1])
        let duplicate = #expect(throws: PostgresError.self) { try db.query("INSERT INTO t VALUES ($1)", [1]) }
        #expect(duplicate?.kind == .uniqueViolation && duplicate?.constraint == "t_pkey" && duplicate?.sqlState == "23505")
        let syntax = #expect(throws: PostgresError.self) { try db.query("SELEC 1") }
        #expect(syntax?.kind == .other && syntax?.sqlState == "42601")
        #expect(try db.query("SELECT count(*) FROM t").first { try $0.int64(0) } == 1)  // still usable
    }

    @Test func aTransactionThatCaughtAFailureIsRolledBackNotCommitted() throws {
        let db = try connection()
        try db.execute("CREATE TABLE t (id bigint PRIMARY KEY)")
        #expect(throws: PostgresError.self) {
            try db.transaction {
                try db.query("INSERT INTO t VALUES (1)")
                _ = try? db.query("INSERT INTO t VALUES (1)")  // fails; the caller swallows it
            }
        }
        #expect(!db.isInTransaction)
        #expect(try db.query("SELECT count(*) FROM t").first { try $0.int64(0) } == 0)
    }

    @Test func aLostRaceIsASerializationFailure() throws {
        let configuration = try PostgresFixture.makeConfiguration()
        let (a, b) = (try PostgresDatabase.open(configuration), try PostgresDatabase.open(configuration))
        try a.execute("CREATE TABLE t (id bigint PRIMARY KEY, n bigint); INSERT INTO t VALUES (1, 0)")
        try a.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        try b.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        try a.query("SELECT n FROM t")
        try b.query("UPDATE t SET n = n + 1")
        try b.execute("COMMIT")
        let lost = #expect(throws: PostgresError.self) { try a.query("UPDATE t SET n = n + 1") }
        #expect(lost?.kind == .serializationFailure && lost?.isTransient == true)
    }

    @Test func aKilledSessionIsConnectionLost() throws {
        let (db, other) = (try connection(), try connection())
        try other.query("SELECT pg_terminate_backend($1::integer)", [.int64(Int64(db.backendPID))])
        let lost = #expect(throws: PostgresError.self) { try db.query("SELECT 1") }
        #expect(lost?.kind == .connectionLost)
        #expect(db.isBroken)
    }

    @Test func thePoolReplacesAConnectionThatDiedWhileIdle() throws {
        let database = try PostgresDatabase(try PostgresFixture.makeConfiguration())
        let pid = try database.withConnection { $0.backendPID }
        try connection().query("SELECT pg_terminate_backend($1::integer)", [.int64(Int64(pid))])
        #expect(try database.read { try $0.query("SELECT 1").first { try $0.int64(0) } } == 1)
        #expect(try database.withConnection { $0.backendPID } != pid)
    }
}
