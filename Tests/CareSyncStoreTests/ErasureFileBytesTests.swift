import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncStore

/// The erasure on SQLite leaves no byte of the patient's values in the database file or its WAL (issue 29): the raw
/// files are searched for a metadata string, the 8-byte encodings of unusual values (SQLite stores a REAL as a big-endian
/// IEEE 754 double, in the table and in the covering indexes) and the sample uuids. The same search finds them before the
/// erasure, so it can fail.
struct ErasureFileBytesTests {
    static let now = StoreFixture.t0

    /// The bytes of the database file and of its `-wal` file (empty when absent).
    static func files(_ path: String) -> [UInt8] {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data()
        return Array(data) + Array(wal)
    }

    /// Whether `needle` occurs in `haystack`.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return false }
        var i = 0
        while i <= haystack.count - needle.count {
            if haystack[i] == first && haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }

    /// A REAL as SQLite writes it in a record.
    static func real(_ value: Double) -> [UInt8] { withUnsafeBytes(of: value.bitPattern.bigEndian) { Array($0) } }

    /// Sets the writer connection's `secure_delete`.
    static func setSecureDelete(_ db: Database, on: Bool) throws {
        try db.writeWithoutTransaction { c in try c.execute("PRAGMA secure_delete = \(on ? 1 : 0)") }
        #expect(try db.writeWithoutTransaction { c in try c.scalarInt64("PRAGMA secure_delete") } == (on ? 1 : 0))
    }

    @Test func noByteOfTheErasedPatientRemainsInTheFileOrItsWAL() async throws {
        let fixture = try StoreFixture.make()
        let db = fixture.store.database
        // As SQLite builds without SQLITE_SECURE_DELETE (Debian's has it on by default): replaced and deleted rows
        // leave their bytes in free space, which only the rebuild reaches.
        try Self.setSecureDelete(db, on: false)
        let access = SQLiteAccessStore(database: db), monitoring = SQLiteMonitoringStore(database: db)
        let marker = "ERASE-ME-\(UUID().uuidString)"
        let value = 4711.0 + Double(Int.random(in: 1...999_999)) / 1_048_576.0 + 0.000_000_1
        let goal = 9876.0 + Double(Int.random(in: 1...999_999)) / 1_048_576.0
        let patients = ["erased", "kept-a", "kept-b", "kept-c"]
        for p in patients { try access.createPatient(PatientRecord(id: p, timeZone: "UTC", createdAt: Self.now)) }

        // Interleaved writes, so the patient's rows share pages with others' and pages split, with replacements and
        // deletions that leave older copies behind in free space.
        var uuids: [UUID] = []
        for round in 0..<40 {
            for p in patients {
                let inputs = (0..<20).map { n in
                    StoreFixture.input(type: .stepCount, value: p == "erased" ? value + Double(n) : 100 + Double(n),
                                       start: Self.now.addingTimeInterval(Double(round * 20 + n) * 60), minutes: 1,
                                       syncIdentifier: "r\(round)-\(n)", syncVersion: 1,
                                       metadata: ["note": .string(p == "erased" ? "\(marker)-\(n)" : "other-\(p)-\(n)")])
                }
                let stored = try fixture.store.upsert(inputs, patient: p, source: "src", now: Self.now)
                if p == "erased" { uuids += stored.results.map(\.uuid) }
                _ = try fixture.store.upsert([StoreFixture.input(type: .stepCount, value: p == "erased" ? value : 7, minutes: 1,
                    syncIdentifier: "r\(round)-0", syncVersion: 2, metadata: ["note": .string(p == "erased" ? marker : "x")])],
                    patient: p, source: "src", now: Self.now)
                _ = try fixture.store.delete(uuids: [], syncIdentifiers: ["r\(round)-1"], patient: p, source: "src", now: Self.now)
            }
        }
        try monitoring.setGoal(PatientGoal(patient: "erased", kind: .dailySteps, target: goal, setBy: "t", setAt: Self.now))
        try monitoring.setGoal(PatientGoal(patient: "erased", kind: .dailySteps, target: goal + 1, setBy: "t", setAt: Self.now))

        let needles: [(String, [UInt8])] = [("metadata", Array(marker.utf8)), ("value", Self.real(value)),
                                            ("goal", Self.real(goal)), ("uuid", withUnsafeBytes(of: uuids[0].uuid) { Array($0) })]
        let keptFeed = try fixture.readAll(patient: "kept-b").items
        let before = Self.files(db.path)
        for (name, needle) in needles {
            let found = Self.contains(before, needle)
            #expect(found, "before the erasure: \(name) is found")
        }

        let receipt = try #require(try SQLiteErasureStore(database: db).erase(ErasureRequest(patient: "erased", tokenID: "a", time: Self.now)))
        #expect(receipt.count(of: "samples") == 40 * 20 - 40 && receipt.cleanupComplete)

        let after = Self.files(db.path)
        for (name, needle) in needles {
            let found = Self.contains(after, needle)
            #expect(!found, "after the erasure: \(name) is gone")
        }
        #expect(((try? FileManager.default.attributesOfItem(atPath: db.path + "-wal")[.size] as? Int) ?? 0) == 0)
        // The other patients' rows are still there, and still readable.
        let othersKept = Self.contains(after, Array("other-kept-a-5".utf8))
        #expect(othersKept)
        #expect(try fixture.readAll(patient: "kept-b").items == keptFeed)
    }

    /// Why the erasure rebuilds the file: `secure_delete` zeroes the cells it deletes and the pages it frees, but when
    /// a page split moved cells to a new page it left their old copies in the unused gap of the page they came from.
    /// Erased without the rebuild, rows that were only ever inserted (with `secure_delete` off, as on SQLite builds
    /// without it) are still found in the file; the same erasure with the rebuild leaves nothing (the test above).
    @Test func withoutTheRebuildCopiesLeftBySplitsRemain() async throws {
        let fixture = try StoreFixture.make()
        let db = fixture.store.database
        try Self.setSecureDelete(db, on: false)
        let access = SQLiteAccessStore(database: db)
        let marker = "ERASE-ME-\(UUID().uuidString)"
        let value = 5813.0 + Double(Int.random(in: 1...999_999)) / 1_048_576.0
        for p in ["erased", "kept"] { try access.createPatient(PatientRecord(id: p, timeZone: "UTC", createdAt: Self.now)) }
        for round in 0..<20 {
            for p in ["erased", "kept"] {
                let inputs = (0..<10).map { n in
                    StoreFixture.input(type: .stepCount, value: p == "erased" ? value : 5, start: Self.now.addingTimeInterval(Double(round * 10 + n) * 60),
                                       minutes: 1, metadata: ["note": .string(p == "erased" ? marker : "other")])
                }
                _ = try fixture.store.upsert(inputs, patient: p, source: "src", now: Self.now)
            }
        }
        _ = try db.writeWithoutTransaction { c in try c.fetchOne("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int64(0) } }
        let stored = Self.contains(Self.files(db.path), Array(marker.utf8)) && Self.contains(Self.files(db.path), Self.real(value))
        #expect(stored)

        let erasure = SQLiteErasureStore(database: db, checkpointAttempts: 5, rebuilds: false)
        let receipt = try #require(try erasure.erase(ErasureRequest(patient: "erased", tokenID: "a", time: Self.now)))
        #expect(receipt.count(of: "samples") == 200 && receipt.cleanupComplete)
        #expect(try fixture.readAll(patient: "erased").items.isEmpty)
        let leftBehind = Self.contains(Self.files(db.path), Array(marker.utf8))
        #expect(leftBehind, "SQLite no longer leaves copies: the rebuild may be dropped")
        #expect(try SQLiteErasureStore(database: db).compact())
        let markerLeft = Self.contains(Self.files(db.path), Array(marker.utf8))
        let valueLeft = Self.contains(Self.files(db.path), Self.real(value))
        let sizes = [db.path, db.path + "-wal"].map { (try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) ?? -1 }
        #expect(!markerLeft && !valueLeft, "marker \(markerLeft) value \(valueLeft) sizes \(sizes)")
        // The transaction's setting was the erasure's own: the connection's is as it was.
        #expect(try db.writeWithoutTransaction { c in try c.scalarInt64("PRAGMA secure_delete") } == 0)
    }
}
