import CareSyncCore
import CareSyncHTTP

/// Monitoring episodes, periods and review minutes as JSON (docs/api.md, "Monitoring").
enum MonitoringWire {
    /// An episode, with its periods when given.
    static func encode(_ e: MonitoringEpisode, periods: [MonitoringPeriod]?) -> JSONValue {
        var o: [String: JSONValue] = [
            "id": .integer(e.id), "startDay": .string(e.startDay.description), "endDay": .optional(e.endDay?.description),
            "open": .bool(e.isOpen), "startedAt": .string(RFC3339.format(e.startedAt)), "endedAt": .optional(e.endedAt.map(RFC3339.format)),
        ]
        if let periods { o["periods"] = .array(periods.map(encode)) }
        return .object(o)
    }

    /// One 30-day period.
    static func encode(_ p: MonitoringPeriod) -> JSONValue {
        ["number": .integer(Int64(p.number)), "firstDay": .string(p.first.description), "lastDay": .string(p.last.description),
         "countedThrough": .string(p.countedThrough.description), "daysWithData": .integer(Int64(p.daysWithData)),
         "daysLeft": .integer(Int64(p.daysLeft)), "state": .string(p.state.rawValue), "canReach16": .bool(p.canReach16),
         "onPace": .bool(p.onPace)]
    }

    /// One review-minutes entry.
    static func encode(_ m: ReviewMinutes) -> JSONValue {
        ["id": .integer(m.id), "day": .string(m.day.description), "minutes": .integer(Int64(m.minutes)),
         "category": .string(m.category.rawValue), "loggedAt": .string(RFC3339.format(m.loggedAt))]
    }
}
