import Foundation

/// The story's request bodies: the WWDC20 six-minute walk tests and a device's step samples.
enum Fixtures {
    /// The report's identifier: week 25 of 2020, starting Monday June 15.
    static let reportID = "report-2020-W25"

    /// An instant from its RFC 3339 text.
    static func instant(_ text: String) -> Date {
        guard let date = ISO8601DateFormatter().date(from: text) else { fatalError("bad fixture instant \(text)") }
        return date
    }

    /// The weekly report with six-minute walk tests (day, metres), in Los Angeles time.
    static func report(version: Int64, tests: [(day: String, meters: Double)]) -> Components.Schemas.WeeklyReportDraft {
        .init(syncIdentifier: reportID, syncVersion: version, weekStart: "2020-06-15", timeZone: "America/Los_Angeles",
              samples: tests.map { test in
                  .init(key: test.day, _type: .sixMinuteWalkTestDistance, value: test.meters, unit: "m",
                        start: instant("\(test.day)T10:00:00-07:00"), end: instant("\(test.day)T10:06:00-07:00"))
              })
    }

    /// Version 1: three tests. Version 2 corrects June 18 from 400 to 450 m.
    static let version1 = report(version: 1, tests: [("2020-06-16", 380), ("2020-06-18", 400), ("2020-06-19", 420)])
    static let version2 = report(version: 2, tests: [("2020-06-16", 380), ("2020-06-18", 450), ("2020-06-19", 420)])

    /// A half hour of steps on June 18 (UTC) with a sync identifier, and metadata of each value kind.
    static func steps(_ count: Double, hour: Int, version: Int64) -> Components.Schemas.SampleDraft {
        let h = hour < 10 ? "0\(hour)" : "\(hour)"
        return .init(_type: .stepCount, value: count, unit: "count",
                     start: instant("2020-06-18T\(h):00:00Z"), end: instant("2020-06-18T\(h):30:00Z"),
                     syncIdentifier: "steps-2020-06-18T\(h)", syncVersion: version,
                     metadata: .init(wasUserEntered: false, additionalProperties: [
                         "cadence": .init(value2: 96.5), "device": .init(value1: "watch"), "indoor": .init(value3: true),
                     ]))
    }
}
