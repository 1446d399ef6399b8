// A child process for the crash-safety test: writes batches in a loop and reports each commit.
//
//     caresync-crash-writer DB_PATH MIGRATIONS_DIR FIRST_BATCH BATCH_SIZE
//
// Batch n upserts BATCH_SIZE samples with sync identifiers "b<n>-<i>" for patient "crash", and
// every third batch also replaces batch n-1's first sample with version 2 and deletes its second one.
// After each commit it writes "committed <n>" to stdout (one unbuffered write). The test kills it with SIGKILL.
import CareSyncCore
import CareSyncStore
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 5, let first = Int(arguments[3]), let size = Int(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: caresync-crash-writer DB MIGRATIONS FIRST_BATCH BATCH_SIZE\n".utf8))
    exit(2)
}
do {
    let store = try SQLiteSyncStore(path: arguments[1], migrationsDirectory: URL(fileURLWithPath: arguments[2]))
    let t0 = Date(timeIntervalSince1970: 1_592_474_400)
    var batch = first
    while true {
        let inputs = (0..<size).map { i in
            SampleInput(type: .stepCount, value: Double(batch * 1000 + i), start: t0, end: t0.addingTimeInterval(60),
                        syncIdentifier: "b\(batch)-\(i)", syncVersion: 1)
        }
        try store.write { w in
            _ = try w.upsert(inputs, patient: "crash", source: "writer", now: t0)
            if batch % 3 == 0, batch > first {
                let replacement = SampleInput(type: .stepCount, value: -1, start: t0, end: t0.addingTimeInterval(60),
                                              syncIdentifier: "b\(batch - 1)-0", syncVersion: 2)
                _ = try w.upsert([replacement], patient: "crash", source: "writer", now: t0)
                _ = try w.delete(uuids: [], syncIdentifiers: ["b\(batch - 1)-1"], patient: "crash", source: "writer", now: t0)
            }
        }
        FileHandle.standardOutput.write(Data("committed \(batch)\n".utf8))
        batch += 1
    }
} catch {
    FileHandle.standardError.write(Data("crash-writer: \(error)\n".utf8))
    exit(1)
}
