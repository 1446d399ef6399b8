import CareSyncCore
import Foundation

// Statistics benchmark: run with `swift run -c release caresync-stats-bench [runs]` (see docs/benchmarks.md).
let runs = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 10
print("StatsBench: \(runs) runs each, daily buckets over 2021 in \(EngineBench.timeZone)")

let one = EngineBench.oneSource()
let oneTotal = one.rows.reduce(0) { $0 + $1.value }
let plain = try EngineBench.measure(runs: runs) {
    StatisticsEngine.run(try StatisticsPlan(EngineBench.query()), input: one)
}
EngineBench.report("engine, 1 source, minute steps", rows: one.rows.count, plain)
print(String(format: "  check: sum of buckets %.1f, sum of samples %.1f", plain.checksum, oneTotal))

let two = EngineBench.twoSources()
let merged = try EngineBench.measure(runs: runs) {
    StatisticsEngine.run(try StatisticsPlan(EngineBench.query(priority: ["watch", "phone"])), input: two)
}
EngineBench.report("engine, 2 overlapping sources, priority", rows: two.rows.count, merged)
let summed = try EngineBench.measure(runs: runs) {
    StatisticsEngine.run(try StatisticsPlan(EngineBench.query()), input: two)
}
EngineBench.report("engine, 2 overlapping sources, no priority", rows: two.rows.count, summed)

// Store fetch + engine: `caresync-stats-bench [runs] [--no-store] [--keep DIR]`.
if !CommandLine.arguments.contains("--no-store") {
    // `--keep DIR` keeps (and on later runs reuses) the loaded database in DIR.
    let keep = CommandLine.arguments.firstIndex(of: "--keep").map { CommandLine.arguments[$0 + 1] }
    let directory = keep.map { URL(fileURLWithPath: $0) }
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("caresync-stats-bench-\(UUID().uuidString)")
    let reuse = FileManager.default.fileExists(atPath: directory.appendingPathComponent("stats-bench.sqlite").path)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { if keep == nil { try? FileManager.default.removeItem(at: directory) } }
    let store = try StoreBench.openStore(in: directory)
    if !reuse {
        let begin = ContinuousClock.now
        try StoreBench.load(one, patient: "p1", into: store)
        try StoreBench.load(two, patient: "p2", into: store)
        print(String(format: "store: loaded %d samples through upsert in %.1f s", one.rows.count + two.rows.count,
                     StoreBench.seconds(since: begin)))
    }

    let storePlain = try EngineBench.measure(runs: runs) { try store.statistics(patient: "p1", query: EngineBench.query()) }
    EngineBench.report("store fetch + engine, 1 source", rows: one.rows.count, storePlain)
    let storeMerged = try EngineBench.measure(runs: runs) {
        try store.statistics(patient: "p2", query: EngineBench.query(priority: ["watch", "phone"]))
    }
    EngineBench.report("store fetch + engine, 2 sources, priority", rows: two.rows.count, storeMerged)
    var lastWeek = EngineBench.query()
    lastWeek.start = lastWeek.end.addingTimeInterval(-7 * 86_400)
    let week = try EngineBench.measure(runs: runs) { try store.statistics(patient: "p1", query: lastWeek) }
    EngineBench.report("store fetch + engine, last week of the year", rows: 7 * 1_440, week)
    print(String(format: "  check: store sums %.1f / %.1f equal engine sums %.1f / %.1f",
                 storePlain.checksum, storeMerged.checksum, plain.checksum, merged.checksum))
}
