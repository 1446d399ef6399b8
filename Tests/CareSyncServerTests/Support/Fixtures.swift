@testable import CareSyncServer

/// Request bodies of the WWDC20 story: six-minute walk tests in weekly reports.
enum Fixtures {
    /// One six-minute walk test of a weekly report, keyed by its day, in Los Angeles time.
    static func walkTest(day: String, meters: Double, unit: String = "m") -> JSONValue {
        ["key": .string(day), "type": "sixMinuteWalkTestDistance", "value": .number(meters), "unit": .string(unit),
         "start": .string("\(day)T10:00:00-07:00"), "end": .string("\(day)T10:06:00-07:00")]
    }

    /// The report of week 25 of 2020 (starting Monday June 15) with the given tests.
    static func report(version: Int, tests: [(String, Double)], id: String = "report-2020-W25") -> JSONValue {
        ["syncIdentifier": .string(id), "syncVersion": .number(Double(version)), "weekStart": "2020-06-15",
         "timeZone": "America/Los_Angeles", "samples": .array(tests.map { walkTest(day: $0.0, meters: $0.1) })]
    }

    /// A step sample with a sync identifier.
    static func steps(_ count: Double, id: String? = nil, version: Int? = nil, hour: Int = 9) -> JSONValue {
        var o: [String: JSONValue] = ["type": "stepCount", "value": .number(count), "unit": "count",
            "start": .string("2020-06-18T\(hour < 10 ? "0" : "")\(hour):00:00Z"), "end": .string("2020-06-18T\(hour < 10 ? "0" : "")\(hour):30:00Z")]
        if let id { o["syncIdentifier"] = .string(id) }
        if let version { o["syncVersion"] = .number(Double(version)) }
        return .object(o)
    }
}
