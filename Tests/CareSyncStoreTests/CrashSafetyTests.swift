import CareSyncTestSupport
import CareSyncCore
import Foundation
import CareSyncReferenceModel
import Testing
@testable import CareSyncStore

/// A child process writes in a loop and is killed with SIGKILL at random points, 24 times. After each kill
/// the database passes `PRAGMA integrity_check`, every batch the child reported committed is there exactly
/// once (with its later replace and delete), and the batch in flight is all there or not at all.
@Suite(.serialized) struct CrashSafetyTests {
    static let batchSize = 20

    /// The crash writer built next to the test runner (swift build builds every target).
    static func writerExecutable() -> URL? {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ].map { $0.appendingPathComponent("caresync-crash-writer") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The expected live state: sync identifier → version; deleted keys are absent.
    static func apply(batch n: Int, first: Int, to expected: inout [String: Int64]) {
        for i in 0..<batchSize { expected["b\(n)-\(i)"] = 1 }
        if n % 3 == 0, n > first {
            expected["b\(n - 1)-0"] = 2
            expected["b\(n - 1)-1"] = nil
        }
    }

    @Test func sigkillAtRandomPointsLosesNoReportedCommit() async throws {
        try await onDedicatedThread { try Self.killRepeatedly() }
    }

    /// What the child printed up to and including its first `committed` line (or until `deadline`).
    static func readUntilFirstCommit(_ handle: FileHandle, deadline: Date) -> String {
        var text = ""
        while !text.contains("committed "), Date() < deadline {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text
    }

    /// The body of the test above: blocking process control, run off the cooperative pool.
    static func killRepeatedly() throws {
        guard let writer = Self.writerExecutable() else {
            Issue.record("caresync-crash-writer not built next to \(CommandLine.arguments[0]); run `swift build` first")
            return
        }
        let seed = UInt64.random(in: 0...UInt64.max)
        var rng = SeededGenerator(seed: seed)
        let dir = try TemporaryDirectory("caresync-crash")
        let dbPath = dir.path("crash.sqlite")
        try Migrator(directory: StoreFixture.migrationsURL).migrate(try Database(path: dbPath))
        var expected: [String: Int64] = [:]
        var next = 0
        var reportedTotal = 0
        var killsAfterCommits = 0
        for round in 0..<24 {
            let process = try ChildProcess(writer.path, [dbPath, StoreFixture.migrationsURL.path, String(next), String(Self.batchSize)],
                                           standardOutput: .pipe, standardError: .null)
            let output = process.standardOutput!
            // Kill at a random point once the child is writing (its first commit reported), so a slow
            // machine's start-up time cannot turn every kill into a kill before any write.
            var text = Self.readUntilFirstCommit(output, deadline: Date() + 20)
            usleep(UInt32.random(in: 0...40_000, using: &rng))
            process.send(SIGKILL)
            #expect(process.waitUntilExit().reason == .uncaughtSignal, "seed \(seed) round \(round): child exited by itself")
            text += String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
            let reported = text.split(separator: "\n").compactMap { line -> Int? in
                line.hasPrefix("committed ") ? Int(line.dropFirst("committed ".count)) : nil
            }
            #expect(reported == Array(next..<(next + reported.count)), "seed \(seed) round \(round): \(reported)")
            for n in reported { Self.apply(batch: n, first: next, to: &expected) }
            reportedTotal += reported.count
            if !reported.isEmpty { killsAfterCommits += 1 }

            let db = try Connection(path: dbPath)
            #expect(try db.scalarString("PRAGMA integrity_check") == "ok", "seed \(seed) round \(round)")
            var live: [String: [Int64]] = [:]
            let rows = try db.fetchAll("SELECT sync_id, sync_version FROM samples WHERE patient = 'crash'") { ($0.string(0), $0.int64(1)) }
            for (key, version) in rows { live[key, default: []].append(version) }
            // The batch in flight when the child died: all of it or none of it.
            let inFlight = next + reported.count
            let inFlightKeys = (0..<Self.batchSize).map { "b\(inFlight)-\($0)" }
            let present = inFlightKeys.filter { live[$0] != nil }.count
            #expect(present == 0 || present == Self.batchSize, "seed \(seed) round \(round): partial batch (\(present))")
            if present == Self.batchSize { Self.apply(batch: inFlight, first: next, to: &expected) }
            for (key, version) in expected {
                #expect(live[key] == [version], "seed \(seed) round \(round): \(key) is \(live[key] ?? []) not [\(version)]")
            }
            #expect(Set(live.keys) == Set(expected.keys), "seed \(seed) round \(round): unexpected keys")
            let tombstoneSeqs = try db.fetchAll("SELECT seq FROM tombstones UNION ALL SELECT seq FROM samples") { $0.int64(0) }
            #expect(Set(tombstoneSeqs).count == tombstoneSeqs.count, "seed \(seed): a sequence was used twice")
            next = present == Self.batchSize ? inFlight + 1 : inFlight
        }
        #expect(killsAfterCommits >= 10, "seed \(seed): too few kills landed during writes")
        #expect(reportedTotal >= 20, "seed \(seed)")
    }
}
