import CareSyncCore
import CareSyncStore
import Foundation

/// Times replica checksums for the patient of the bench: at the head, and as of an anchor 5,000 changes back;
/// beside it, a scan that reads every sample's uuid and version (what running sums avoid), in the same run.
enum ChecksumBench {
    static func run(store: SQLiteSyncStore, label: String, report: BenchReport) throws {
        let head = try store.currentAnchor()
        let back = Anchor(storeID: head.storeID, sequence: max(0, head.sequence - 5_000), horizon: head.horizon)
        func median(_ body: () throws -> Void) rethrows -> Double {
            var times: [Double] = []
            for _ in 0..<20 {
                let start = Clock.now
                try body()
                times.append(Clock.since(start) * 1000)
            }
            return times.sorted()[times.count / 2]
        }
        var count: Int64 = 0
        let atHead = try median { count = try store.checksums(patient: BenchInputs.patient, at: nil).types.values.map(\.count).reduce(0, +) }
        let atBack = try median { _ = try store.checksums(patient: BenchInputs.patient, at: back) }
        let scan = try median {
            _ = try store.database.read { db in
                try db.fetchAll("SELECT uuid, sync_version FROM samples WHERE patient = ?", [.text(BenchInputs.patient)]) { $0.int64(1) }.count
            }
        }
        report.line(String(format: "[%@] checksums of %d samples: head %.2f ms, 5,000 changes back %.2f ms (median of 20); a scan of their uuids and versions %.1f ms",
                           label, count, atHead, atBack, scan))
    }
}
