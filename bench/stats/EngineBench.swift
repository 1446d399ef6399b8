import CareSyncCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The engine alone over in-memory rows: one source, and two overlapping sources with priority.
enum EngineBench {
    /// 2021 in Los Angeles: 365 local days (both DST changes), 525,600 minutes.
    static let start = Date(timeIntervalSince1970: 1_609_488_000)  // 2021-01-01T00:00:00-08:00
    static let minutes = 525_600
    static let timeZone = "America/Los_Angeles"

    /// A step count per minute, 0...120, from a fixed seed.
    static func steps(_ count: Int) -> [Double] {
        var state: UInt64 = 42
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double((state >> 33) % 121)
        }
    }

    /// One source: a sample per minute.
    static func oneSource() -> StatisticsInput {
        var input = StatisticsInput(capacity: minutes)
        let phone = input.sourceIndex("phone")
        let base = SyncRules.milliseconds(start)
        for (m, value) in steps(minutes).enumerated() {
            let t = base + Int64(m) * 60_000
            input.append(StatisticsRow(start: t, end: t + 60_000, value: value, source: phone))
        }
        return input
    }

    /// Two sources: the watch counts 45 s of every minute, the phone a minute shifted by 30 s, so every
    /// phone sample is partly under the watch (1,051,200 rows, sorted by start).
    static func twoSources() -> StatisticsInput {
        var input = StatisticsInput(capacity: 2 * minutes)
        let watch = input.sourceIndex("watch"), phone = input.sourceIndex("phone")
        let base = SyncRules.milliseconds(start)
        let values = steps(2 * minutes)
        for m in 0..<minutes {
            let t = base + Int64(m) * 60_000
            input.append(StatisticsRow(start: t, end: t + 45_000, value: values[2 * m], source: watch))
            input.append(StatisticsRow(start: t + 30_000, end: min(t + 90_000, base + Int64(minutes) * 60_000),
                                       value: values[2 * m + 1], source: phone))
        }
        return input
    }

    /// The daily-steps query over the year, optionally with a priority list.
    static func query(priority: [String] = []) -> StatisticsQuery {
        StatisticsQuery(type: .stepCount, start: start, end: start.addingTimeInterval(Double(minutes) * 60), interval: .day,
                        timeZone: timeZone, options: .cumulativeSum, priority: priority)
    }

    /// Timings of one case: wall-clock and this thread's CPU time, in ms, sorted; and the last result.
    struct Measurement {
        var wall: [Double]
        var cpu: [Double]
        var checksum: Double
        var buckets: Int
    }

    /// This thread's CPU time in ms (what the run itself cost, whatever else the machine is doing).
    static func threadCPUMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1_000 + Double(time.tv_nsec) / 1e6
    }

    /// Runs `body` `runs` times and times each run.
    static func measure(runs: Int, _ body: () throws -> StatisticsCollection) rethrows -> Measurement {
        var wall: [Double] = [], cpu: [Double] = []
        var last: StatisticsCollection?
        for _ in 0..<runs {
            let clock = ContinuousClock()
            let begin = clock.now
            let cpuBegin = threadCPUMilliseconds()
            last = try body()
            cpu.append(threadCPUMilliseconds() - cpuBegin)
            let elapsed = clock.now - begin
            wall.append(Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        let checksum = last?.buckets.reduce(0) { $0 + ($1.values.sum ?? 0) } ?? 0
        return Measurement(wall: wall.sorted(), cpu: cpu.sorted(), checksum: checksum, buckets: last?.buckets.count ?? 0)
    }

    /// One result line: name, rows, wall min / median, CPU min / median, buckets, checksum.
    static func report(_ name: String, rows: Int, _ m: Measurement) {
        let line = String(format: "%-44@ rows=%8d  wall min %7.1f median %7.1f ms  cpu min %7.1f median %7.1f ms  buckets=%d  total=%.1f",
                          name as NSString, rows, m.wall[0], m.wall[m.wall.count / 2], m.cpu[0], m.cpu[m.cpu.count / 2],
                          m.buckets, m.checksum)
        print(line)
    }
}
