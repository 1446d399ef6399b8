import Foundation
import CareSyncReferenceModel
import Testing
@testable import CareSyncCore

/// Properties over random samples: sums are conserved by bucketing; priority matches a brute-force oracle.
@Suite struct StatisticsPropertyTests {
    static let zones = ["UTC", "America/Los_Angeles", "Europe/Berlin", "Asia/Tokyo", "Asia/Kolkata", "Australia/Lord_Howe"]

    /// The seed: `STATISTICS_SEED` when set (to replay), else random; printed either way.
    static func seed() -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["STATISTICS_SEED"], let seed = UInt64(text) { return seed }
        return UInt64.random(in: 0...UInt64.max)
    }

    @Test(arguments: StatisticsInterval.allCases)
    func bucketSumsEqualTheSumOfNonOverlappingSamples(interval: StatisticsInterval) throws {
        let seed = Self.seed()
        print("StatisticsPropertyTests.bucketSums seed=\(seed) interval=\(interval.rawValue)")
        var random = SeededGenerator(seed: seed)
        // Through both DST changes of 2020 in the northern and southern zones; hours over 40 days.
        let start = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01T00:00:00Z
        let days = interval == .hour ? 40 : 366
        let offset = interval == .hour ? Double(Int.random(in: 0...300, using: &random)) * 86_400 : 0
        let rangeStart = start.addingTimeInterval(offset)
        let rangeEnd = rangeStart.addingTimeInterval(Double(days) * 86_400)
        for zone in Self.zones {
            var input = StatisticsInput()
            let sources = [input.sourceIndex("phone"), input.sourceIndex("watch")]
            var t = SyncRules.milliseconds(rangeStart)
            let endMs = SyncRules.milliseconds(rangeEnd)
            var total = 0.0
            while true {
                t += Int64.random(in: 0...(6 * 3_600_000), using: &random)
                let length = Bool.random(using: &random) ? 0 : Int64.random(in: 1...(30 * 3_600_000), using: &random)
                guard t + length < endMs else { break }
                let value = Double.random(in: 0...1_000, using: &random)
                input.append(StatisticsRow(start: t, end: t + length, value: value, source: sources.randomElement(using: &random)!))
                total += value
                t += length
            }
            for priority in [[], ["watch", "phone"]] {
                let query = StatisticsQuery(type: .stepCount, start: rangeStart, end: rangeEnd, interval: interval,
                                            timeZone: zone, options: .cumulativeSum, priority: priority)
                let result = StatisticsEngine.run(try StatisticsPlan(query), input: input)
                let sum = result.buckets.reduce(0) { $0 + ($1.values.sum ?? 0) }
                #expect(abs(sum - total) <= 1e-9 * max(1, total), "seed \(seed) zone \(zone) priority \(priority): \(sum) vs \(total)")
                #expect(result.buckets.first?.start == rangeStart && result.buckets.last?.end == rangeEnd)
                #expect(zip(result.buckets, result.buckets.dropFirst()).allSatisfy { $0.end == $1.start && $0.start < $0.end })
            }
        }
    }

    @Test func priorityMatchesAMinuteByMinuteOracle() throws {
        let seed = Self.seed()
        print("StatisticsPropertyTests.priorityOracle seed=\(seed)")
        var random = SeededGenerator(seed: seed)
        let minute: Int64 = 60_000
        let rangeStart: Int64 = 1_592_438_400_000  // 2020-06-18T00:00:00Z
        let minutes = 3 * 24 * 60
        let names = ["watch", "phone", "scale"]
        for round in 0..<20 {
            var input = StatisticsInput()
            var samples: [(start: Int, end: Int, value: Double, rank: Int)] = []
            for _ in 0..<Int.random(in: 1...120, using: &random) {
                let rank = Int.random(in: 0..<names.count, using: &random)
                let start = Int.random(in: -60..<minutes, using: &random)
                let end = start + Int.random(in: 1...600, using: &random)
                let value = Double(Int.random(in: 0...5_000, using: &random))
                samples.append((start, end, value, rank))
                input.append(StatisticsRow(start: rangeStart + Int64(start) * minute, end: rangeStart + Int64(end) * minute,
                                           value: value, source: input.sourceIndex(names[rank])))
            }
            // Oracle: per minute of the range, the best rank covering it; its samples add value/length each.
            var expected = [Double](repeating: 0, count: 3 * 24)
            var touched = [Bool](repeating: false, count: 3 * 24)
            for m in 0..<minutes {
                let covering = samples.filter { $0.start <= m && m < $0.end }
                guard let best = covering.map(\.rank).min() else { continue }
                for sample in covering where sample.rank == best {
                    expected[m / 60] += sample.value / Double(sample.end - sample.start)
                    touched[m / 60] = true
                }
            }
            let query = StatisticsQuery(type: .stepCount, start: SyncRules.date(milliseconds: rangeStart),
                                        end: SyncRules.date(milliseconds: rangeStart + Int64(minutes) * minute),
                                        interval: .hour, options: .cumulativeSum, priority: names)
            let result = StatisticsEngine.run(try StatisticsPlan(query), input: input)
            #expect(result.buckets.count == expected.count)
            for (i, bucket) in result.buckets.enumerated() {
                let want: Double? = touched[i] ? expected[i] : nil
                #expect(abs((bucket.values.sum ?? -1) - (want ?? -1)) <= 1e-6 * max(1, want ?? 1),
                        "seed \(seed) round \(round) hour \(i): \(String(describing: bucket.values.sum)) vs \(String(describing: want))")
            }
        }
    }

    /// Heart rate's average over time against a brute-force oracle: minute by minute, the value in effect is
    /// the mean of the bucket's samples with the latest start at or before that minute; the bucket's average
    /// is the mean over its minutes from its first sample on. Sources interleave (no priority).
    @Test(arguments: [StatisticsInterval.hour, .day])
    func weightedAverageMatchesAMinuteByMinuteOracle(interval: StatisticsInterval) throws {
        let seed = Self.seed()
        print("StatisticsPropertyTests.weightedOracle seed=\(seed) interval=\(interval.rawValue)")
        var random = SeededGenerator(seed: seed)
        let minute: Int64 = 60_000
        let rangeStart: Int64 = 1_592_438_400_000  // 2020-06-18T00:00:00Z
        let minutes = 2 * 24 * 60, bucketMinutes = interval == .hour ? 60 : 24 * 60
        for round in 0..<20 {
            var input = StatisticsInput()
            var samples: [(start: Int, value: Double)] = []
            for _ in 0..<Int.random(in: 1...80, using: &random) {
                let start = Int.random(in: 0..<minutes, using: &random)
                let value = Double(Int.random(in: 40...180, using: &random))
                samples.append((start, value))
                let source = input.sourceIndex(["watch", "phone"][Int.random(in: 0...1, using: &random)])
                input.append(StatisticsRow(start: rangeStart + Int64(start) * minute, end: rangeStart + Int64(start) * minute,
                                           value: value, source: source))
            }
            var expected: [Double?] = []
            for bucket in 0..<(minutes / bucketMinutes) {
                let low = bucket * bucketMinutes, high = low + bucketMinutes
                let inBucket = samples.filter { $0.start >= low && $0.start < high }
                var total = 0.0, counted = 0
                for m in low..<high {
                    guard let latest = inBucket.filter({ $0.start <= m }).map(\.start).max() else { continue }
                    let group = inBucket.filter { $0.start == latest }.map(\.value)
                    total += group.reduce(0, +) / Double(group.count)
                    counted += 1
                }
                expected.append(counted > 0 ? total / Double(counted) : nil)
            }
            let query = StatisticsQuery(type: .heartRate, start: SyncRules.date(milliseconds: rangeStart),
                                        end: SyncRules.date(milliseconds: rangeStart + Int64(minutes) * minute),
                                        interval: interval, options: .discreteAverage)
            let result = StatisticsEngine.run(try StatisticsPlan(query), input: input)
            #expect(result.buckets.map(\.values.average).count == expected.count)
            for (i, bucket) in result.buckets.enumerated() {
                let got = bucket.values.average, want = expected[i]
                #expect((got == nil) == (want == nil) && abs((got ?? 0) - (want ?? 0)) <= 1e-9 * max(1, abs(want ?? 0)),
                        "seed \(seed) round \(round) bucket \(i): \(String(describing: got)) vs \(String(describing: want))")
            }
        }
    }
}
