import CareSyncCore
import Foundation

/// The commit times of `commit_times` (migration postgresql/0018, `WriteTimes`): written by the write that holds the
/// head row, once per write that advanced the log, so they follow the log across instances whose clocks disagree.
enum PostgresWriteTimes {
    /// Records the commit of a write that advanced the log to `head`, at its latest `now`, never before the previous commit.
    static func record(_ db: PostgresConnection, head: Int64, latestNow: Date?) throws {
        let previous = try db.query("SELECT committed_at_ms FROM commit_times ORDER BY position DESC LIMIT 1").first { try $0.int64(0) }
        try db.query("INSERT INTO commit_times (position, committed_at_ms) VALUES ($1, $2)",
                     [.int64(head), .int64(WriteTimes.stamp(latestNow: latestNow, previous: previous))])
    }

    /// The highest position committed before `instant` (0: none); a sub-millisecond instant counts from its next millisecond.
    static func position(_ db: PostgresConnection, committedBefore instant: Date) throws -> Int64 {
        let limit = Int64((instant.timeIntervalSince1970 * 1000).rounded(.up))
        return try db.query("""
            SELECT position FROM commit_times WHERE committed_at_ms < $1 ORDER BY committed_at_ms DESC, position DESC LIMIT 1
            """, [.int64(limit)]).first { try $0.int64(0) } ?? 0
    }

    /// The time of the first commit at or after `position`; nil for 0 or past the last commit.
    static func writeTime(_ db: PostgresConnection, of position: Int64) throws -> Date? {
        guard position > 0 else { return nil }
        return try db.query("SELECT committed_at_ms FROM commit_times WHERE position >= $1 ORDER BY position LIMIT 1",
                            [.int64(position)]).first { SyncRules.date(milliseconds: try $0.int64(0)) }
    }

    /// The feed's column of a sample's write time (`samples.seq` in scope).
    static let sampleColumn = "(SELECT committed_at_ms FROM commit_times WHERE position >= samples.seq ORDER BY position LIMIT 1)"

    /// Forgets the commits below the last one at or below `horizon` that no live sample was written in (a purge took their
    /// changes); the last one stays, so an instant after it still maps to the horizon.
    static func prune(_ db: PostgresConnection, through horizon: Int64) throws {
        try db.query("""
            DELETE FROM commit_times WHERE position IN (
                SELECT position FROM (
                    SELECT position, coalesce(lag(position) OVER (ORDER BY position), 0) AS previous
                      FROM commit_times WHERE position <= $1) AS c
                 WHERE c.position < (SELECT max(position) FROM commit_times WHERE position <= $1)
                   AND NOT EXISTS (SELECT 1 FROM samples WHERE seq > c.previous AND seq <= c.position))
            """, [.int64(horizon)])
    }
}
