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
