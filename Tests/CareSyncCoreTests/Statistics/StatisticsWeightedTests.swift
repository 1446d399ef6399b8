import Foundation
import Testing
@testable import CareSyncCore

/// Time-weighted averages of `discreteTemporallyWeighted` types (heart rate), computed by hand: in a bucket,
/// each value holds from its start until the next sample's start, the last until the bucket's end.
@Suite struct StatisticsWeightedTests {
    typealias F = StatisticsFixtures

    /// One hand-computed case: samples on 2020-06-18 (UTC), the expected average of each bucket.
    struct Case: CustomTestStringConvertible {
        var name: String
        var rows: [F.Row]
        var interval: StatisticsInterval = .day
        var end = "2020-06-19T00:00:00Z"
        var priority: [String] = []
        var averages: [Double?]
        var testDescription: String { name }
    }

    static func at(_ time: String, _ value: Double, _ source: String = "watch") -> F.Row {
        .init(source: source, start: "2020-06-18T\(time):00Z", end: "2020-06-18T\(time):00Z", value: value)
    }

    static let cases: [Case] = [
        // 60 holds 06:00–18:00 (12 h), 100 holds 18:00–24:00 (6 h): (60·12 + 100·6) / 18; arithmetic would be 80.
        Case(name: "the last value holds until the bucket's end", rows: [at("06:00", 60), at("18:00", 100)],
             averages: [(60.0 * 12 + 100 * 6) / 18]),
        // Two sources at the same instant share it: mean 70 for 12 h, then 100 for 12 h; arithmetic 80.
        Case(name: "samples with one start share its time", rows: [at("00:00", 60), at("00:00", 80, "phone"), at("12:00", 100)],
             averages: [85]),
        Case(name: "one sample is its own average", rows: [at("23:00", 50)], averages: [50]),
        // The range ends at 20:00: 60 for 8 h, 90 for 4 h.
        Case(name: "the query's end cuts the last bucket", rows: [at("08:00", 60), at("16:00", 90)],
             end: "2020-06-18T20:00:00Z", averages: [(60.0 * 8 + 90 * 4) / 12]),
        // 10:00 60 (15 min), 10:15 120 (30 min), 10:45 90 (15 min, not carried past 11:00); 11:30 30 alone.
        Case(name: "a value does not carry into the next bucket",
             rows: [at("10:00", 60), at("10:15", 120), at("10:45", 90), at("11:30", 30)], interval: .hour,
             end: "2020-06-18T12:00:00Z", averages: Array(repeating: nil, count: 10) + [(60.0 * 15 + 120 * 30 + 90 * 15) / 60, 30]),
        // All sources in one time line: 60 (6 h), 100 (6 h), 90 (6 h).
        Case(name: "without priority the sources interleave", rows: [at("06:00", 60), at("12:00", 100, "phone"), at("18:00", 90)],
             averages: [(60.0 + 100 + 90) / 3]),
        // Watch first: only the watch's line, 60 from 06:00 to 18:00, then 90.
        Case(name: "with priority the first source's line", rows: [at("06:00", 60), at("12:00", 100, "phone"), at("18:00", 90)],
             priority: ["watch", "phone"], averages: [(60.0 * 12 + 90 * 6) / 18]),
    ]

    @Test(arguments: cases)
    func heartRateAveragesOverTime(_ c: Case) throws {
        let query = F.makeQuery(type: .heartRate, start: "2020-06-18T00:00:00Z", end: c.end, interval: c.interval,
                                options: .discreteAverage, priority: c.priority)
        let averages = try F.run(query, c.rows).buckets.map(\.values.average)
        #expect(averages.count == c.averages.count)
        for (got, want) in zip(averages, c.averages) { #expect(close(got, want), "\(String(describing: got)) vs \(String(describing: want))") }
    }

    @Test func eachSourceHasItsOwnLineAndFiguresConvert() throws {
        var query = F.makeQuery(type: .heartRate, start: "2020-06-18T00:00:00Z", end: "2020-06-19T00:00:00Z",
                                options: [.discreteAverage, .discreteMin, .separateBySource], unit: "count/s")
        let rows = [Self.at("06:00", 60), Self.at("12:00", 100, "phone"), Self.at("18:00", 90)]
        let bucket = try F.run(query, rows).buckets[0]
        // The phone: 100 alone; the watch: 60 for 12 h then 90 for 6 h; per second.
        #expect(bucket.sources?.map(\.source) == ["phone", "watch"])
        #expect(close(bucket.sources?[0].values.average, 100.0 / 60))
        let watch: Double = (60.0 * 12 + 90 * 6) / 18 / 60
        #expect(close(bucket.sources?[1].values.average, watch))
        #expect(close(bucket.values.average, 250.0 / 3 / 60) && close(bucket.values.minimum, 1))
        // The same samples as body mass (discreteArithmetic) keep the plain mean.
        query.type = .bodyMass
        query.unit = nil
        #expect(close(try F.run(query, rows).buckets[0].values.average, 250.0 / 3))
        query.type = .heartRate
        query.options = .discreteAverage
        #expect(close(try F.run(query, [Self.at("06:00", 60), Self.at("18:00", 100)]).buckets[0].values.average, 220.0 / 3))
    }
}
