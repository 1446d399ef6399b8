import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncStore

@Suite struct SQLiteLayerTests {
    @Test func connectionOpensInWALWithForeignKeysAndBusyTimeout() throws {
        let dir = try TemporaryDirectory()
        var settings = ConnectionConfiguration()
        settings.synchronous = .full
        let db = try Connection(path: dir.path("a.sqlite"), configuration: settings)
        #expect(try db.scalarString("PRAGMA journal_mode") == "wal")
        #expect(try db.scalarInt64("PRAGMA foreign_keys") == 1)
        #expect(try db.scalarInt64("PRAGMA synchronous") == 2)
        #expect(try db.scalarInt64("PRAGMA busy_timeout") == 5_000)
    }

    @Test func statementBindsAndReadsEveryStorageClass() throws {
        let dir = try TemporaryDirectory()
        let db = try Connection(path: dir.path("a.sqlite"))
        try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n TEXT)")
        let id = UUID()
        let insert = try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)")
        try insert.bind(Int64.max, at: 1)
        try insert.bind(2.5, at: 2)
        try insert.bind("héllo", at: 3)
        try insert.bind(id, at: 4)
        try insert.bind(nil as String?, at: 5)
        try insert.execute()
        let row = try db.fetchOne("SELECT i, r, s, b, n FROM t") { s in
            (s.int64(0), s.double(1), s.string(2), s.uuid(3), s.optionalString(4), s.value(1))
        }
        #expect(row?.0 == Int64.max)
        #expect(row?.1 == 2.5)
        #expect(row?.2 == "héllo")
        #expect(row?.3 == id)
        #expect(row?.4 == nil)
        #expect(row?.5 == .real(2.5))
    }

    @Test func cachedStatementIsReusedAndReset() throws {
        let dir = try TemporaryDirectory()
        let db = try Connection(path: dir.path("a.sqlite"))
        try db.execute("CREATE TABLE t (x INTEGER)")
        for x in 1...3 { try db.execute("INSERT INTO t VALUES (?)", [.integer(Int64(x))]) }
        let a = try db.cachedStatement("SELECT sum(x) FROM t")
        let b = try db.cachedStatement("SELECT sum(x) FROM t")
        #expect(a === b)
        #expect(try db.scalarInt64("SELECT sum(x) FROM t") == 6)
        #expect(try db.scalarInt64("SELECT sum(x) FROM t WHERE x > ?", [1]) == 5)
    }

    @Test func errorsCarryCodeMessageAndSQL() throws {
        let dir = try TemporaryDirectory()
        let db = try Connection(path: dir.path("a.sqlite"))
        try db.execute("CREATE TABLE t (x INTEGER UNIQUE)")
        try db.execute("INSERT INTO t VALUES (?)", [1])
        let error = #expect(throws: DatabaseError.self) { try db.execute("INSERT INTO t VALUES (?)", [1]) }
        #expect(error?.code == .constraint)
        #expect(error?.extendedCode == 2067)  // SQLITE_CONSTRAINT_UNIQUE
        #expect(error?.message.contains("UNIQUE") == true)
        #expect(error?.sql == "INSERT INTO t VALUES (?)")
        let syntax = #expect(throws: DatabaseError.self) { try db.prepare("SELEKT 1") }
        #expect(syntax?.code == .error)
        #expect(syntax?.sql == "SELEKT 1")
    }

    @Test func transactionRollsBackWhenBodyThrows() throws {
        struct Boom: Error {}
        let dir = try TemporaryDirectory()
        let database = try Database(path: dir.path("a.sqlite"))
        try database.write { db in try db.execute("CREATE TABLE t (x INTEGER)") }
        #expect(throws: Boom.self) {
            try database.write { db in
                try db.execute("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        try database.write { db in try db.execute("INSERT INTO t VALUES (2)") }
        #expect(try database.read { try $0.scalarInt64("SELECT group_concat(x) FROM t") } == 2)
    }

    @Test func readSeesOneSnapshotWhileWriterCommits() throws {
        let dir = try TemporaryDirectory()
        let database = try Database(path: dir.path("a.sqlite"))
        try database.write { db in
            try db.execute("CREATE TABLE t (x INTEGER)")
            try db.execute("INSERT INTO t VALUES (1)")
        }
        let (before, after) = try database.read { db -> (Int64?, Int64?) in
            let before = try db.scalarInt64("SELECT count(*) FROM t")
            try database.write { w in try w.execute("INSERT INTO t VALUES (2)") }  // Another connection commits.
            return (before, try db.scalarInt64("SELECT count(*) FROM t"))
        }
        #expect(before == 1)
        #expect(after == 1)
        #expect(try database.read { try $0.scalarInt64("SELECT count(*) FROM t") } == 2)
    }

    @Test func readersAreReadOnly() throws {
        let dir = try TemporaryDirectory()
        let database = try Database(path: dir.path("a.sqlite"))
        try database.write { db in try db.execute("CREATE TABLE t (x INTEGER)") }
        let error = #expect(throws: DatabaseError.self) {
            try database.read { db in try db.execute("INSERT INTO t VALUES (1)") }
        }
        #expect(error?.code == .readOnly)
    }

    @Test func backupCopiesWhileWritersRun() throws {
        let dir = try TemporaryDirectory()
        let database = try Database(path: dir.path("a.sqlite"))
        try database.write { db in try db.execute("CREATE TABLE t (x INTEGER)") }
        let stop = Shared(false)
        let writer = Thread {
            var i: Int64 = 0
            while !stop.current {
                i += 1
                _ = try? database.write { db in try db.execute("INSERT INTO t VALUES (?)", [.integer(i)]) }
            }
        }
        writer.start()
        Thread.sleep(forTimeInterval: 0.05)
        try database.backup(to: dir.path("copy.sqlite")) { db in try db.execute("CREATE TABLE marker (x)") }
        stop.set(true)
        let copy = try Connection(path: dir.path("copy.sqlite"))
        #expect(try copy.scalarString("PRAGMA integrity_check") == "ok")
        let count = try copy.scalarInt64("SELECT count(*) FROM t") ?? 0
        let max = try copy.scalarInt64("SELECT max(x) FROM t") ?? 0
        #expect(count == max)  // A prefix of the writes: a consistent snapshot.
        #expect(try copy.scalarInt64("SELECT count(*) FROM marker") == 0)
        #expect(!FileManager.default.fileExists(atPath: dir.path("copy.sqlite.partial")))
    }

    @Test func readerPoolServesMoreThreadsThanConnections() throws {
        let dir = try TemporaryDirectory()
        var configuration = Database.Configuration()
        configuration.maximumReaders = 2
        let database = try Database(path: dir.path("a.sqlite"), configuration: configuration)
        try database.write { db in
            try db.execute("CREATE TABLE t (x INTEGER)")
            for x in 1...10 { try db.execute("INSERT INTO t VALUES (?)", [.integer(Int64(x))]) }
        }
        let sums = UUIDLog()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            do {
                let sum = try database.read { db in try db.scalarInt64("SELECT sum(x) FROM t") }
                if sum != 55 { sums.fail("sum \(String(describing: sum))") }
            } catch { sums.fail("\(error)") }
        }
        #expect(sums.messages.isEmpty, "\(sums.messages)")
    }

    @Test func savepointRollsBackOnlyItsOwnWork() throws {
        struct Boom: Error {}
        let dir = try TemporaryDirectory()
        let database = try Database(path: dir.path("a.sqlite"))
        try database.write { db in
            try db.execute("CREATE TABLE t (x INTEGER)")
            try db.execute("INSERT INTO t VALUES (1)")
            #expect(throws: Boom.self) {
                try db.savepoint {
                    try db.execute("INSERT INTO t VALUES (2)")
                    throw Boom()
                }
            }
            try db.execute("INSERT INTO t VALUES (3)")
        }
        #expect(try database.read { try $0.scalarString("SELECT group_concat(x) FROM t") } == "1,3")
    }

    @Test func sha256MatchesStandardVectors() {
        #expect(SHA256Digest.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Digest.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256Digest.hex(long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}

