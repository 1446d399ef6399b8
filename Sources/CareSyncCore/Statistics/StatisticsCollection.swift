import Foundation

/// The answer to a statistics query: every bucket of the range, in order, empty ones included.
public struct StatisticsCollection: Hashable, Sendable {
    /// The type asked for.
    public var type: SampleType
    /// The unit every figure is in.
    public var unit: HealthUnit
    /// What was computed; the HTTP layer renders a field for each, `null` when the bucket has no value.
    public var options: StatisticsOptions
    /// The buckets, by start.
    public var buckets: [StatisticsBucket]

    /// A collection.
    public init(type: SampleType, unit: HealthUnit, options: StatisticsOptions, buckets: [StatisticsBucket]) {
        self.type = type; self.unit = unit; self.options = options; self.buckets = buckets
    }
}

/// One bucket: its bounds, its figures, and (with `separateBySource`) the figures of each source.
public struct StatisticsBucket: Hashable, Sendable {
    /// The first instant of the bucket.
    public var start: Date
    /// The instant after the bucket.
    public var end: Date
    /// The bucket's figures; all nil when no sample counted.
    public var values: StatisticsValues
    /// Per source, by source name, only sources with samples here; nil without `separateBySource`.
    public var sources: [SourceStatistics]?

    /// A bucket.
    public init(start: Date, end: Date, values: StatisticsValues, sources: [SourceStatistics]? = nil) {
        self.start = start; self.end = end; self.values = values; self.sources = sources
    }
}

/// The figures of one bucket (or one source in it); only the requested ones are ever non-nil.
public struct StatisticsValues: Hashable, Sendable {
    /// `cumulativeSum`.
    public var sum: Double?
    /// `discreteAverage`.
    public var average: Double?
    /// `discreteMin`.
    public var minimum: Double?
    /// `discreteMax`.
    public var maximum: Double?
    /// `mostRecent`: the value of the sample with the latest start.
    public var mostRecent: Double?
    /// The start of the most recent sample.
    public var mostRecentStart: Date?
    /// The end of the most recent sample.
    public var mostRecentEnd: Date?
    /// `durationByValue`: the time spent in each category value (by its integer), only values that occur.
    public var durations: [Int: Double]?

    /// Figures; nil ones were not asked for or had no sample.
    public init(sum: Double? = nil, average: Double? = nil, minimum: Double? = nil, maximum: Double? = nil,
                mostRecent: Double? = nil, mostRecentStart: Date? = nil, mostRecentEnd: Date? = nil,
                durations: [Int: Double]? = nil) {
        self.sum = sum; self.average = average; self.minimum = minimum; self.maximum = maximum
        self.mostRecent = mostRecent; self.mostRecentStart = mostRecentStart; self.mostRecentEnd = mostRecentEnd
        self.durations = durations
    }

    /// Whether no figure is set.
    public var isEmpty: Bool {
        sum == nil && average == nil && minimum == nil && maximum == nil && mostRecent == nil && durations == nil
    }
}

/// The figures of one source inside a bucket.
public struct SourceStatistics: Hashable, Sendable {
    /// The source name (a bundle identifier).
    public var source: String
    /// Its figures in that bucket.
    public var values: StatisticsValues

    /// Per-source figures.
    public init(source: String, values: StatisticsValues) { self.source = source; self.values = values }
}
