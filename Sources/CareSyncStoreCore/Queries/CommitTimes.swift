import CareSyncCore
import Foundation

/// The commit times of `commit_times` (SQLite migration 0026, PostgreSQL 0018; `WriteTimes`), in either dialect:
/// written once per write that advanced the log (on PostgreSQL by the write holding the head row, so they follow the
/// log across instances whose clocks disagree), read to date samples and to turn an instant into a change-log position.
public enum CommitTimes {
    /// Records the commit of a write that advanced the log to `head`, at its latest `now`, never before the previous commit
    /// (`WriteTimes.stamp`, in SQL, so the statement needs no answer and PostgreSQL sends it ahead).
    public static func record<DB: QueryConnection>(_ db: DB, head: Int64, latestNow: Date?) throws {
        let now = SyncRules.milliseconds(latestNow ?? Date())
        func p(_ index: Int) -> String { DB.parameter(index) }
        try db.run("""
            INSERT INTO commit_times (position, committed_at_ms) VALUES (\(p(1)), coalesce((
              SELECT CASE WHEN committed_at_ms > \(p(2)) THEN committed_at_ms ELSE \(p(3)) END
                FROM commit_times ORDER BY position DESC LIMIT 1), \(p(4))))
            """, [.integer(head), .integer(now), .integer(now), .integer(now)])
    }

    /// The highest position committed before `instant` (0: none); a sub-millisecond instant counts from its next millisecond.
    public static func position<DB: QueryConnection>(_ db: DB, committedBefore instant: Date) throws -> Int64 {
        let limit = Int64((instant.timeIntervalSince1970 * 1000).rounded(.up))
        return try db.fetchFirst("""
            SELECT position FROM commit_times WHERE committed_at_ms < \(DB.parameter(1)) ORDER BY committed_at_ms DESC, position DESC LIMIT 1
            """, [.integer(limit)]) { try $0.integer(0) } ?? 0
    }

    /// The time of the first commit at or after `position`; nil for 0 or past the last commit.
    public static func writeTime<DB: QueryConnection>(_ db: DB, of position: Int64) throws -> Date? {
        guard position > 0 else { return nil }
        return try db.fetchFirst("SELECT committed_at_ms FROM commit_times WHERE position >= \(DB.parameter(1)) ORDER BY position LIMIT 1",
                                 [.integer(position)]) { SyncRules.date(milliseconds: try $0.integer(0)) }
    }

    /// The feed's column of a sample's write time (`samples.seq` in scope).
    public static let sampleColumn = "(SELECT committed_at_ms FROM commit_times WHERE position >= samples.seq ORDER BY position LIMIT 1)"

    /// Forgets the commits below the last one at or below `horizon` that no live sample was written in (a purge took their
    /// changes); the last one stays, so an instant after it still maps to the horizon.
    public static func prune<DB: QueryConnection>(_ db: DB, through horizon: Int64) throws {
        try db.run("""
            DELETE FROM commit_times WHERE position IN (
                SELECT position FROM (
                    SELECT position, coalesce(lag(position) OVER (ORDER BY position), 0) AS previous
                      FROM commit_times WHERE position <= \(DB.parameter(1))) AS c
                 WHERE c.position < (SELECT max(position) FROM commit_times WHERE position <= \(DB.parameter(2)))
                   AND NOT EXISTS (SELECT 1 FROM samples WHERE seq > c.previous AND seq <= c.position))
            """, [.integer(horizon), .integer(horizon)])
    }
}
