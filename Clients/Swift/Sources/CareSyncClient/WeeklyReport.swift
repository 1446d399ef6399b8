import Foundation

/// A weekly report as stored: the current version with its samples and a seven-day chart.
public struct WeeklyReport: Codable, Sendable, Hashable {
    /// A report sample: a feed sample plus its key in the report.
    public struct ReportSample: Codable, Sendable, Hashable {
        /// The key, unique in the report (`2020-06-18`).
        public var key: String
        /// The sample; its sync identifier is `<report>/<key>`.
        public var sample: Sample

        public init(key: String, sample: Sample) {
            self.key = key
            self.sample = sample
        }

        private enum CodingKeys: String, CodingKey { case key }

        public init(from decoder: any Decoder) throws {
            key = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .key)
            sample = try Sample(from: decoder)
        }

        public func encode(to encoder: any Encoder) throws {
            try sample.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(key, forKey: .key)
        }
    }

    /// One day of the chart.
    public struct ChartDay: Codable, Sendable, Hashable {
        /// One sample in the chart.
        public struct Value: Codable, Sendable, Hashable {
            public var key: String
            public var type: String
            public var uuid: UUID
            public var value: Double
            public var unit: String?
            public var start: Date
            public var end: Date
        }
        /// The calendar day, `YYYY-MM-DD`.
        public var day: String
        /// The samples starting that day in the report's time zone.
        public var values: [Value]
    }

    /// The report's identifier (`report-2020-W25`).
    public var syncIdentifier: String
    /// The stored version.
    public var syncVersion: Int
    /// The first day of the week, `YYYY-MM-DD`.
    public var weekStart: String
    /// The IANA time zone the week is read in.
    public var timeZone: String
    /// Who posted it.
    public var source: String
    /// When this version was stored.
    public var updatedAt: Date
    /// The live samples of this version, by key.
    public var samples: [ReportSample]
    /// Seven days from `weekStart`.
    public var chart: [ChartDay]
}

/// A report sample to post: no uuid, sync identifier or version (the report sets them).
public struct ReportSampleDraft: Codable, Sendable, Hashable {
    /// The key, 1–256 bytes, no `/`, unique in the report.
    public var key: String
    public var type: String
    public var value: Double
    public var unit: String?
    public var start: Date
    public var end: Date
    public var metadata: [String: MetadataValue]?

    /// A report sample from its fields.
    public init(key: String, type: String, value: Double, unit: String?, start: Date, end: Date,
                metadata: [String: MetadataValue]? = nil) {
        self.key = key
        self.type = type
        self.value = value
        self.unit = unit
        self.start = start
        self.end = end
        self.metadata = metadata
    }
}

/// One version of a weekly report to post.
public struct WeeklyReportDraft: Codable, Sendable, Hashable {
    public var syncIdentifier: String
    public var syncVersion: Int
    public var weekStart: String
    public var timeZone: String
    public var samples: [ReportSampleDraft]
}

/// The answer to posting a report version.
public struct WeeklyReportAnswer: Codable, Sendable, Hashable {
    /// `inserted`, `replaced` or `ignored`.
    public var outcome: Outcome
    /// The position just after this commit.
    public var anchor: String
    /// The caller's report as now stored.
    public var report: WeeklyReport
}
