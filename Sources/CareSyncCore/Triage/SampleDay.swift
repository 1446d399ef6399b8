import Foundation

/// One source's live samples of one type on one calendar day in a patient's time zone: what days with data, a source's
/// newest sample and weekly totals are read from (docs/status.md).
public struct SampleDay: Sendable, Hashable {
    /// The day, in the zone the figures were computed in.
    public var day: CalendarDay
    /// The source that wrote the samples.
    public var source: String
    /// Their type.
    public var type: SampleType
    /// How many start on this day.
    public var starts: Int
    /// The latest start among them (nil when none starts on this day).
    public var newestStart: Date?
    /// How many count toward `sum`: for a cumulative type, those whose time reaches into the day (a zero-length one:
    /// whose instant lies in it); for other types none.
    public var counted: Int
    /// For a cumulative type, each counted sample's value prorated by its time on this day, as the statistics engine
    /// splits a sample across buckets (`StatisticsEngine`); 0 for other types.
    public var sum: Double

    /// The figures.
    public init(day: CalendarDay, source: String, type: SampleType, starts: Int, newestStart: Date?, counted: Int, sum: Double) {
        self.day = day; self.source = source; self.type = type; self.starts = starts
        self.newestStart = newestStart; self.counted = counted; self.sum = sum
    }
}
