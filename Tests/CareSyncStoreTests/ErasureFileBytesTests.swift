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

    @Test func noByteOfTheErasedPatientRemainsInTheFileOrItsWAL() async throws {
        let fixture = try StoreFixture.make()
        let db = fixture.store.database
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
        for (name, needle) in needles { #expect(Self.contains(before, needle), "before the erasure: \(name) is found") }

        let receipt = try #require(try SQLiteErasureStore(database: db).erase(ErasureRequest(patient: "erased", tokenID: "a", time: Self.now)))
        #expect(receipt.count(of: "samples") == 40 * 20 - 40 && receipt.cleanupComplete)

        let after = Self.files(db.path)
        for (name, needle) in needles { #expect(!Self.contains(after, needle), "after the erasure: \(name) is gone") }
        #expect(((try? FileManager.default.attributesOfItem(atPath: db.path + "-wal")[.size] as? Int) ?? 0) == 0)
        // The other patients' rows are still there, and still readable.
        #expect(Self.contains(after, Array("other-kept-a-5".utf8)))
        #expect(try fixture.readAll(patient: "kept-b").items == keptFeed)
    }
}
