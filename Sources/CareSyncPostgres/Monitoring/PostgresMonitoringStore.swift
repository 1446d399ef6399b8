import CareSyncCore
import Foundation

/// Monitoring episodes and review minutes in the PostgreSQL database (migration 0007, the tables of SQLite's 0015).
/// A patient's episode writes lock its patient row, so two instances cannot both open an episode.
public final class PostgresMonitoringStore: MonitoringStore {
    let database: PostgresDatabase

    /// A store over an open, migrated database.
    public init(database: PostgresDatabase) { self.database = database }

    static let episodeColumns = "id, patient_id, start_day, end_day, started_by, started_at, ended_by, ended_at"

    public func startEpisode(_ e: MonitoringEpisode) throws -> MonitoringEpisode {
        try database.write { db in
            try db.query("SELECT 1 FROM patients WHERE id = $1 FOR NO KEY UPDATE", [.text(e.patient)])
            try PostgresErasureStore.eraser.refuseErased(db, e.patient)
            guard try db.query("SELECT 1 FROM monitoring_episodes WHERE patient_id = $1 AND end_day IS NULL", [.text(e.patient)]).count == 0 else {
                throw MonitoringStoreError.openEpisodeExists
            }
            if let last = try db.query("SELECT max(end_day) FROM monitoring_episodes WHERE patient_id = $1", [.text(e.patient)])
                .first({ try $0.optionalString(0) }), let lastDay = last.flatMap(CalendarDay.init(parsing:)), lastDay >= e.startDay {
                throw MonitoringStoreError.overlapsEarlierEpisode(lastDay)
            }
            let ids = try db.query("""
                INSERT INTO monitoring_episodes (patient_id, start_day, started_by, started_at) VALUES ($1, $2, $3, $4)
                ON CONFLICT (patient_id) WHERE end_day IS NULL DO NOTHING RETURNING id
                """, [.text(e.patient), .text(e.startDay.description), .text(e.startedBy), .int64(SyncRules.milliseconds(e.startedAt))])
                .map { try $0.int64(0) }
            guard let id = ids.first else { throw MonitoringStoreError.openEpisodeExists }
            var stored = e
            stored.id = id
            stored.endDay = nil; stored.endedBy = nil; stored.endedAt = nil
            return stored
        }
    }

    public func endEpisode(patient: String, endDay: CalendarDay, by tokenID: String, at: Date) throws -> MonitoringEpisode? {
        try database.write { db in
            try db.query("""
                UPDATE monitoring_episodes SET end_day = $1, ended_by = $2, ended_at = $3 WHERE patient_id = $4 AND end_day IS NULL
                RETURNING \(Self.episodeColumns)
                """, [.text(endDay.description), .text(tokenID), .int64(SyncRules.milliseconds(at)), .text(patient)]).first(Self.episodeRow)
        }
    }

    public func episodes(patient: String) throws -> [MonitoringEpisode] {
        try database.read { db in
            try db.query("SELECT \(Self.episodeColumns) FROM monitoring_episodes WHERE patient_id = $1 ORDER BY start_day, id",
                         [.text(patient)]).map(Self.episodeRow)
        }
    }

    static func episodeRow(_ r: PostgresRow) throws -> MonitoringEpisode {
        MonitoringEpisode(id: try r.int64(0), patient: try r.string(1), startDay: try day(try r.string(2)),
                          endDay: try r.optionalString(3).map(day), startedBy: try r.string(4),
                          startedAt: SyncRules.date(milliseconds: try r.int64(5)), endedBy: try r.optionalString(6),
                          endedAt: try r.optionalInt64(7).map(SyncRules.date(milliseconds:)))
    }

    static func day(_ text: String) throws -> CalendarDay {
        guard let d = CalendarDay(parsing: text) else { throw PostgresStoreCorruption("a stored day is not YYYY-MM-DD") }
        return d
    }

    public func logMinutes(_ m: ReviewMinutes) throws -> ReviewMinutes {
        try database.write { db in
            try PostgresErasureStore.eraser.refuseErased(db, m.patient)
            let ids = try db.query("""
                INSERT INTO review_minutes (patient_id, day, minutes, category, logged_by, logged_at) VALUES ($1, $2, $3, $4, $5, $6)
                RETURNING id
                """, [.text(m.patient), .text(m.day.description), .int64(Int64(m.minutes)), .text(m.category.rawValue),
                      .text(m.loggedBy), .int64(SyncRules.milliseconds(m.loggedAt))]).map { try $0.int64(0) }
            var stored = m
            stored.id = ids.first ?? 0
            return stored
        }
    }

    public func minutes(patient: String, from first: CalendarDay, through last: CalendarDay) throws -> [ReviewMinutes] {
        try database.read { db in
            try db.query("""
                SELECT id, patient_id, day, minutes, category, logged_by, logged_at FROM review_minutes
                WHERE patient_id = $1 AND day >= $2 AND day <= $3 ORDER BY day, id
                """, [.text(patient), .text(first.description), .text(last.description)]).map { r in
                guard let category = ReviewCategory(rawValue: try r.string(4)) else { throw PostgresStoreCorruption("unknown review category") }
                return ReviewMinutes(id: try r.int64(0), patient: try r.string(1), day: try Self.day(try r.string(2)),
                                     minutes: Int(try r.int64(3)), category: category, loggedBy: try r.string(5),
                                     loggedAt: SyncRules.date(milliseconds: try r.int64(6)))
            }
        }
    }
}
