import Foundation

/// What a therapist needs to know first about one patient, computed from the samples the server stores.
public struct PatientStatus: Hashable, Sendable {
    /// The patient's id.
    public var patient: String
    /// The patient's IANA time zone, in which days and weeks are counted.
    public var timeZone: String
    /// The instant the status was computed for.
    public var now: Date
    /// One entry per device source of the patient, by source.
    public var sources: [SourceStatus]
    /// The first day of the lookback window (patient's zone).
    public var windowStart: CalendarDay
    /// Today in the patient's zone, the window's last day.
    public var today: CalendarDay
    /// The days of the window on which at least one device sample starts, ascending.
    public var daysWithData: [CalendarDay]
    /// The runs of days of the window with no device sample, ascending.
    public var gaps: [DayRun]
    /// This and last week's totals per tracked type (step count), when readable.
    public var weeks: [WeekTotals]
    /// The latest six-minute walk and its change from the previous one, when readable and present.
    public var walkTest: WalkTestChange?
    /// How much attention the patient needs, and why.
    public var attention: Attention
    /// The patient's unresolved alerts (open and acknowledged), newest first; filled in by the caller (`withAlerts`).
    public var alerts: [Alert] = []
    /// The name people see for the patient (empty when none is set).
    public var displayName = ""

    /// A status.
    public init(patient: String, timeZone: String, now: Date, sources: [SourceStatus], windowStart: CalendarDay, today: CalendarDay,
                daysWithData: [CalendarDay], gaps: [DayRun], weeks: [WeekTotals], walkTest: WalkTestChange?, attention: Attention) {
        self.patient = patient; self.timeZone = timeZone; self.now = now; self.sources = sources
        self.windowStart = windowStart; self.today = today; self.daysWithData = daysWithData; self.gaps = gaps
        self.weeks = weeks; self.walkTest = walkTest; self.attention = attention
    }
}

/// One device source of a patient: when the server last received a sample from it and how new its data is.
public struct SourceStatus: Hashable, Sendable {
    /// The source stamped by the device token(s).
    public var source: String
    /// Server time of the latest successful sample write by one of the source's tokens (audit log), or nil.
    public var lastReceived: Date?
    /// The start of the newest live sample of the source starting in the window, or nil.
    public var newestSampleStart: Date?
    /// Whether nothing was received for longer than the threshold (or never).
    public var silent: Bool
    /// What people call the device (`Apple Watch`), given when it enrolled with a code; nil for a token made otherwise.
    public var displayName: String?
    /// Whether at least one of the source's tokens still works (not revoked, not expired); only then can it be silent.
    public var active = true
    /// A source status.
    public init(source: String, lastReceived: Date?, newestSampleStart: Date?, silent: Bool) {
        self.source = source; self.lastReceived = lastReceived; self.newestSampleStart = newestSampleStart; self.silent = silent
    }
}

/// A run of consecutive calendar days, both ends included.
public struct DayRun: Hashable, Sendable {
    /// The first day.
    public var first: CalendarDay
    /// The last day.
    public var last: CalendarDay
    /// How many days the run holds.
    public var days: Int { last.daysSince1970 - first.daysSince1970 + 1 }
    /// A run.
    public init(first: CalendarDay, last: CalendarDay) { self.first = first; self.last = last }
}

/// This and last week's totals of one cumulative type, weeks starting Monday 00:00 in the patient's zone.
public struct WeekTotals: Hashable, Sendable {
    /// The type, such as step count.
    public var type: SampleType
    /// The Monday the current week starts on.
    public var thisWeekStart: CalendarDay
    /// The total so far this week (nil: no samples).
    public var thisWeek: Double?
    /// Last week's total (nil: no samples).
    public var lastWeek: Double?
    /// Totals of one type.
    public init(type: SampleType, thisWeekStart: CalendarDay, thisWeek: Double?, lastWeek: Double?) {
        self.type = type; self.thisWeekStart = thisWeekStart; self.thisWeek = thisWeek; self.lastWeek = lastWeek
    }
}

/// The latest six-minute walk (metres) and the previous one.
public struct WalkTestChange: Hashable, Sendable {
    /// When the latest test started.
    public var start: Date
    /// Its distance in metres.
    public var meters: Double
    /// The previous test's distance, if any.
    public var previousMeters: Double?
    /// Latest minus previous, if there is a previous one.
    public var change: Double? { previousMeters.map { meters - $0 } }
    /// A walk-test change.
    public init(start: Date, meters: Double, previousMeters: Double?) { self.start = start; self.meters = meters; self.previousMeters = previousMeters }
}

extension PatientStatus {
    /// The status with each source's display name from `names` (source → name of its enrolment).
    public func withDeviceNames(_ names: [String: String]) -> PatientStatus {
        var status = self
        for index in status.sources.indices { status.sources[index].displayName = names[status.sources[index].source] }
        return status
    }

    /// The status with the patient's unresolved `alerts` listed and its open ones counted in the attention score.
    public func withAlerts(_ alerts: [Alert]) -> PatientStatus {
        var status = self
        status.alerts = alerts.filter { $0.state != .resolved }
        status.attention.openAlerts = status.alerts.filter { $0.state == .open }.count
        return status
    }
}
