import Foundation

/// A span of remote monitoring of one patient, started and ended by a therapist; 30-day periods roll from its start.
public struct MonitoringEpisode: Hashable, Sendable {
    /// Assigned by the store, increasing.
    public var id: Int64
    /// The patient monitored.
    public var patient: String
    /// The first day monitored (patient's calendar).
    public var startDay: CalendarDay
    /// The last day monitored; nil while the episode is open.
    public var endDay: CalendarDay?
    /// The token that started it.
    public var startedBy: String
    /// When it was started (server time).
    public var startedAt: Date
    /// The token that ended it.
    public var endedBy: String?
    /// When it was ended (server time).
    public var endedAt: Date?

    /// An episode; the store assigns `id`.
    public init(id: Int64 = 0, patient: String, startDay: CalendarDay, endDay: CalendarDay? = nil, startedBy: String, startedAt: Date,
                endedBy: String? = nil, endedAt: Date? = nil) {
        self.id = id; self.patient = patient; self.startDay = startDay; self.endDay = endDay
        self.startedBy = startedBy; self.startedAt = startedAt; self.endedBy = endedBy; self.endedAt = endedAt
    }

    /// Whether the episode is still open.
    public var isOpen: Bool { endDay == nil }
}
