import Foundation
import CareSyncCore

/// Monitoring episodes and review minutes in the SQLite database (migration 0015).
public final class SQLiteMonitoringStore: MonitoringStore {
    let database: Database

    /// A store over an open, migrated database.
    public init(database: Database) { self.database = database }

    static let episodeColumns = "id, patient_id, start_day, end_day, started_by, started_at, ended_by, ended_at"

    public func startEpisode(_ e: MonitoringEpisode) throws -> MonitoringEpisode {
        try database.write { db in
            try SQLiteErasureStore.eraser.refuseErased(db, e.patient)
            guard try db.scalarInt64("SELECT 1 FROM monitoring_episodes WHERE patient_id = ? AND end_day IS NULL", [.text(e.patient)]) == nil else {
                throw MonitoringStoreError.openEpisodeExists
            }
            if let last = try db.fetchOne("SELECT max(end_day) FROM monitoring_episodes WHERE patient_id = ?", [.text(e.patient)], { $0.optionalString(0) }),
               let lastDay = last.flatMap(CalendarDay.init(parsing:)), lastDay >= e.startDay {
                throw MonitoringStoreError.overlapsEarlierEpisode(lastDay)
            }
            try db.execute("INSERT INTO monitoring_episodes (patient_id, start_day, started_by, started_at) VALUES (?, ?, ?, ?)",
                           [.text(e.patient), .text(e.startDay.description), .text(e.startedBy), .integer(SyncRules.milliseconds(e.startedAt))])
            var stored = e
            stored.id = db.lastInsertRowID
            stored.endDay = nil; stored.endedBy = nil; stored.endedAt = nil
            return stored
        }
    }

    public func endEpisode(patient: String, endDay: CalendarDay, by tokenID: String, at: Date) throws -> MonitoringEpisode? {
        try database.write { db in
            try db.execute("UPDATE monitoring_episodes SET end_day = ?, ended_by = ?, ended_at = ? WHERE patient_id = ? AND end_day IS NULL",
                           [.text(endDay.description), .text(tokenID), .integer(SyncRules.milliseconds(at)), .text(patient)])
            guard db.changes == 1 else { return nil }
            return try db.fetchOne("SELECT \(Self.episodeColumns) FROM monitoring_episodes WHERE patient_id = ? ORDER BY id DESC LIMIT 1",
                                   [.text(patient)], Self.episodeRow)
        }
    }

    public func episodes(patient: String) throws -> [MonitoringEpisode] {
        try database.read { db in
            try db.fetchAll("SELECT \(Self.episodeColumns) FROM monitoring_episodes WHERE patient_id = ? ORDER BY start_day, id",
                            [.text(patient)], Self.episodeRow)
        }
    }

    static func episodeRow(_ s: Statement) throws -> MonitoringEpisode {
        MonitoringEpisode(id: s.int64(0), patient: s.string(1), startDay: try day(s.string(2)),
                          endDay: try s.optionalString(3).map(day), startedBy: s.string(4),
                          startedAt: SyncRules.date(milliseconds: s.int64(5)), endedBy: s.optionalString(6),
                          endedAt: s.isNull(7) ? nil : SyncRules.date(milliseconds: s.int64(7)))
    }

    static func day(_ text: String) throws -> CalendarDay {
        guard let d = CalendarDay(parsing: text) else { throw StoreCorruption("a stored day is not YYYY-MM-DD") }
        return d
    }

    public func logMinutes(_ m: ReviewMinutes) throws -> ReviewMinutes {
        try database.write { db in
            try SQLiteErasureStore.eraser.refuseErased(db, m.patient)
            try db.execute("INSERT INTO review_minutes (patient_id, day, minutes, category, logged_by, logged_at) VALUES (?, ?, ?, ?, ?, ?)",
                           [.text(m.patient), .text(m.day.description), .integer(Int64(m.minutes)), .text(m.category.rawValue),
                            .text(m.loggedBy), .integer(SyncRules.milliseconds(m.loggedAt))])
            var stored = m
            stored.id = db.lastInsertRowID
            return stored
        }
    }

    public func minutes(patient: String, from first: CalendarDay, through last: CalendarDay) throws -> [ReviewMinutes] {
        try database.read { db in
            try db.fetchAll("""
                SELECT id, patient_id, day, minutes, category, logged_by, logged_at FROM review_minutes
                WHERE patient_id = ? AND day >= ? AND day <= ? ORDER BY day, id
                """, [.text(patient), .text(first.description), .text(last.description)]) { s in
                guard let category = ReviewCategory(rawValue: s.string(4)) else { throw StoreCorruption("unknown review category") }
                return ReviewMinutes(id: s.int64(0), patient: s.string(1), day: try Self.day(s.string(2)), minutes: Int(s.int64(3)),
                                     category: category, loggedBy: s.string(5), loggedAt: SyncRules.date(milliseconds: s.int64(6)))
            }
        }
    }
}
