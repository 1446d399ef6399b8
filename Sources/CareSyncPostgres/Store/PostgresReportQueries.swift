import CareSyncCore
import Foundation

/// Rows of `weekly_reports` and the live samples they point to.
enum PostgresReportQueries {
    /// One `weekly_reports` row.
    struct Row {
        var source: String
        var syncIdentifier: String
        var syncVersion: Int64
        var weekStart: CalendarDay
        var timeZone: String
        var keys: [String]
        var updatedAt: Int64
    }

    private static let columns = "source, sync_id, sync_version, week_start, time_zone, keys, updated_at_ms"

    private static func decode(_ row: PostgresRow) throws -> Row {
        let week = try row.string(3)
        guard let day = CalendarDay(parsing: week) else { throw PostgresStoreCorruption("bad week_start \(week)") }
        let keys = try JSONDecoder().decode([String].self, from: Data(try row.string(5).utf8))
        return Row(source: try row.string(0), syncIdentifier: try row.string(1), syncVersion: try row.int64(2), weekStart: day,
                   timeZone: try row.string(4), keys: keys, updatedAt: try row.int64(6))
    }

    /// The report of (patient, source, syncIdentifier).
    static func row(_ db: PostgresConnection, patient: String, source: String, syncIdentifier: String) throws -> Row? {
        try db.query("SELECT \(columns) FROM weekly_reports WHERE patient = $1 AND source = $2 AND sync_id = $3",
                     [.text(patient), .text(source), .text(syncIdentifier)]).first(decode)
    }

    /// The sources with a report of this id, bytewise (COLLATE "C").
    static func sources(_ db: PostgresConnection, patient: String, syncIdentifier: String) throws -> [String] {
        let rows = try db.query("SELECT source FROM weekly_reports WHERE patient = $1 AND sync_id = $2 ORDER BY source COLLATE \"C\"",
                                [.text(patient), .text(syncIdentifier)])
        return try rows.map { try $0.string(0) }
    }

    /// The candidates of a report list page: up to `maxReports + 1` rows after the query's position, in list order
    /// (the columns sort bytewise: COLLATE "C").
    static func rows(_ db: PostgresConnection, _ query: ReportListQuery) throws -> [Row] {
        var sql = "SELECT \(columns) FROM weekly_reports WHERE patient = $1 AND week_start BETWEEN $2 AND $3"
        var parameters: [PostgresValue] = [.text(query.patient), .text(query.from.description), .text(query.to.description)]
        if let after = query.after {
            sql += " AND (week_start, sync_id, source) > ($4, $5, $6)"
            parameters += [.text(after.weekStart.description), .text(after.syncIdentifier), .text(after.source)]
        }
        sql += " ORDER BY week_start, sync_id, source LIMIT $\(parameters.count + 1)"
        parameters.append(.int64(Int64(query.maxReports) + 1))
        return try db.query(sql, parameters).map(decode)
    }

    /// The row's place in the list.
    static func position(_ row: Row) -> ReportPosition {
        ReportPosition(weekStart: row.weekStart, syncIdentifier: row.syncIdentifier, source: row.source)
    }

    /// Inserts or updates a report row.
    static func save(_ db: PostgresConnection, patient: String, row: Row) throws {
        let keys = String(decoding: try JSONEncoder().encode(row.keys), as: UTF8.self)
        try db.query("""
            INSERT INTO weekly_reports (patient, source, sync_id, sync_version, week_start, time_zone, keys, updated_at_ms)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            ON CONFLICT (patient, source, sync_id) DO UPDATE SET sync_version = excluded.sync_version,
              week_start = excluded.week_start, time_zone = excluded.time_zone, keys = excluded.keys,
              updated_at_ms = excluded.updated_at_ms
            """, [.text(patient), .text(row.source), .text(row.syncIdentifier), .int64(row.syncVersion),
                  .text(row.weekStart.description), .text(row.timeZone), .text(keys), .int64(row.updatedAt)])
    }

    /// For each key of the report's current version, the live sample of (patient, source, `<report>/<key>`).
    static func liveSamples(_ db: PostgresConnection, patient: String, row: Row) throws -> [String: Sample] {
        var samples: [String: Sample] = [:]
        for key in row.keys {
            let id = SyncRules.derivedSyncIdentifier(report: row.syncIdentifier, key: key)
            if let sample = try db.query("""
                SELECT \(PostgresSampleRow.sampleColumns) FROM samples
                WHERE patient = $1 AND source = $2 AND sync_id = $3 AND sync_id IS NOT NULL
                """, [.text(patient), .text(row.source), .text(id)]).first({ try PostgresSampleRow.decodeSample($0) }) {
                samples[key] = sample
            }
        }
        return samples
    }

    /// The full report of a row.
    static func report(_ db: PostgresConnection, patient: String, row: Row) throws -> WeeklyReport {
        WeeklyReport(syncIdentifier: row.syncIdentifier, syncVersion: row.syncVersion, weekStart: row.weekStart,
                     timeZone: row.timeZone, source: row.source, samples: try liveSamples(db, patient: patient, row: row),
                     updatedAt: SyncRules.date(milliseconds: row.updatedAt))
    }
}
