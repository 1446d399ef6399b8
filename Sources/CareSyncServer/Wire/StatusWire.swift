import CareSyncCore
import CareSyncHTTP

/// Patient status as JSON (docs/api.md, "Patient status").
enum StatusWire {
    /// One patient's status.
    static func encode(_ s: PatientStatus) -> JSONValue {
        [
            "patient": .string(s.patient), "displayName": .string(s.displayName), "timeZone": .string(s.timeZone), "computedAt": .string(RFC3339.format(s.now)),
            "sources": .array(s.sources.map(encode)),
            "window": ["start": .string(s.windowStart.description), "end": .string(s.today.description)],
            "daysWithData": .array(s.daysWithData.map { .string($0.description) }),
            "gaps": .array(s.gaps.map { ["start": .string($0.first.description), "end": .string($0.last.description),
                                         "days": .integer(Int64($0.days)), "ongoing": .bool($0.last == s.today)] }),
            "weeks": .array(s.weeks.map(encode)),
            "walkTest": s.walkTest.map(encode) ?? .null,
            "attention": encode(s.attention),
            "alerts": .array(s.alerts.map(AlertWire.encode)),
        ]
    }

    /// One device source.
    static func encode(_ s: SourceStatus) -> JSONValue {
        ["source": .string(s.source), "lastReceivedAt": .optional(s.lastReceived.map(RFC3339.format)),
         "newestSampleStart": .optional(s.newestSampleStart.map(RFC3339.format)), "silent": .bool(s.silent),
         "displayName": .optional(s.displayName), "active": .bool(s.active)]
    }

    /// One type's weekly totals.
    static func encode(_ w: WeekTotals) -> JSONValue {
        ["type": .string(w.type.rawValue), "thisWeekStart": .string(w.thisWeekStart.description),
         "thisWeek": .optional(w.thisWeek), "lastWeek": .optional(w.lastWeek)]
    }

    /// The latest walk test.
    static func encode(_ w: WalkTestChange) -> JSONValue {
        ["start": .string(RFC3339.format(w.start)), "meters": .number(w.meters),
         "previousMeters": .optional(w.previousMeters), "change": .optional(w.change)]
    }

    /// The attention figures and their score.
    static func encode(_ a: Attention) -> JSONValue {
        ["score": .integer(Int64(a.score)), "silentSources": .integer(Int64(a.silentSources)), "noDevice": .bool(a.noDevice),
         "daysWithoutDataLastWeek": .integer(Int64(a.daysWithoutDataLastWeek)), "walkDeclined": .bool(a.walkDeclined),
         "openAlerts": .integer(Int64(a.openAlerts))]
    }
}
