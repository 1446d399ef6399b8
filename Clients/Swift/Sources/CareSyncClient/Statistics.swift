import Foundation

/// A statistics query, `HKStatisticsCollectionQuery` on the server.
public struct StatisticsQuery: Sendable, Hashable {
    /// The bucket length.
    public enum Interval: String, Sendable, Hashable { case hour, day, week, month }

    public var type: String
    public var start: Date
    public var end: Date
    public var interval: Interval
    /// `cumulativeSum`, or any of `discreteAverage`, `discreteMin`, `discreteMax`, `mostRecent`; plus `separateBySource`.
    public var options: [String]
    public var anchorDate: Date?
    public var timeZone: String?
    public var unit: String?
    public var excludeUserEntered: Bool?
    public var sources: [String]?
    public var priority: [String]?

    /// A query from its fields.
    public init(type: String, start: Date, end: Date, interval: Interval, options: [String],
                anchorDate: Date? = nil, timeZone: String? = nil, unit: String? = nil,
                excludeUserEntered: Bool? = nil, sources: [String]? = nil, priority: [String]? = nil) {
        self.type = type
        self.start = start
        self.end = end
        self.interval = interval
        self.options = options
        self.anchorDate = anchorDate
        self.timeZone = timeZone
        self.unit = unit
        self.excludeUserEntered = excludeUserEntered
        self.sources = sources
        self.priority = priority
    }

    /// The query parameters, in a fixed order.
    var parameters: [(String, String)] {
        var p: [(String, String)] = [
            ("type", type), ("start", Instant.format(start)), ("end", Instant.format(end)),
            ("interval", interval.rawValue), ("options", options.joined(separator: ",")),
        ]
        if let anchorDate { p.append(("anchorDate", Instant.format(anchorDate))) }
        if let timeZone { p.append(("timeZone", timeZone)) }
        if let unit { p.append(("unit", unit)) }
        if let excludeUserEntered { p.append(("excludeUserEntered", excludeUserEntered ? "true" : "false")) }
        if let sources { p.append(("sources", sources.joined(separator: ","))) }
        if let priority { p.append(("priority", priority.joined(separator: ","))) }
        return p
    }
}

/// The answer to a statistics query.
public struct StatisticsResult: Codable, Sendable, Hashable {
    /// One bucket.
    public struct Bucket: Codable, Sendable, Hashable {
        /// One source's own figures (with `separateBySource`).
        public struct SourceFigures: Codable, Sendable, Hashable {
            public var source: String
            public var sum: Double?
            public var average: Double?
            public var min: Double?
            public var max: Double?
            public var mostRecent: Double?
        }
        public var start: Date
        public var end: Date
        public var sum: Double?
        public var average: Double?
        public var min: Double?
        public var max: Double?
        public var mostRecent: Double?
        /// Present with `separateBySource`.
        public var sources: [SourceFigures]?
    }
    public var type: String
    public var unit: String
    public var buckets: [Bucket]
}
