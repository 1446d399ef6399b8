import CareSyncCore
import Foundation

/// Rows of `weekly_reports` and the live samples they point to.
enum ReportQueries {
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

    private static func decode(_ s: Statement) throws -> Row {
        guard let day = CalendarDay(parsing: s.string(3)) else { throw StoreCorruption("bad week_start \(s.string(3))") }
        let keys = try JSONDecoder().decode([String].self, from: Data(s.string(5).utf8))
        return Row(source: s.string(0), syncIdentifier: s.string(1), syncVersion: s.int64(2), weekStart: day,
                   timeZone: s.string(4), keys: keys, updatedAt: s.int64(6))
    }

    /// The report of (patient, source, syncIdentifier).
    static func row(_ db: Connection, patient: String, source: String, syncIdentifier: String) throws -> Row? {
        try db.fetchOne("SELECT \(columns) FROM weekly_reports WHERE patient = ? AND source = ? AND sync_id = ?",
                        [.text(patient), .text(source), .text(syncIdentifier)], decode)
    }

    /// The sources with a report of this id, bytewise (SQLite's default collation).
    static func sources(_ db: Connection, patient: String, syncIdentifier: String) throws -> [String] {
        try db.fetchAll("SELECT source FROM weekly_reports WHERE patient = ? AND sync_id = ? ORDER BY source",
                        [.text(patient), .text(syncIdentifier)]) { $0.string(0) }
    }

    /// The candidates of a report list page: up to `maxReports + 1` rows after the query's position, in list order.
    static func rows(_ db: Connection, _ query: ReportListQuery) throws -> [Row] {
        var sql = "SELECT \(columns) FROM weekly_reports WHERE patient = ? AND week_start BETWEEN ? AND ?"
        var arguments: [SQLValue] = [.text(query.patient), .text(query.from.description), .text(query.to.description)]
        if let after = query.after {
            sql += " AND (week_start, sync_id, source) > (?, ?, ?)"
            arguments += [.text(after.weekStart.description), .text(after.syncIdentifier), .text(after.source)]
        }
        sql += " ORDER BY week_start, sync_id, source LIMIT ?"
        arguments.append(.integer(Int64(query.maxReports) + 1))
        return try db.fetchAll(sql, arguments, decode)
    }

    /// The row's place in the list.
    static func position(_ row: Row) -> ReportPosition {
        ReportPosition(weekStart: row.weekStart, syncIdentifier: row.syncIdentifier, source: row.source)
    }

    /// Inserts or updates a report row.
    static func save(_ db: Connection, patient: String, row: Row) throws {
        let keys = String(decoding: try JSONEncoder().encode(row.keys), as: UTF8.self)
        try db.execute("""
            INSERT INTO weekly_reports (patient, source, sync_id, sync_version, week_start, time_zone, keys, updated_at_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (patient, source, sync_id) DO UPDATE SET sync_version = excluded.sync_version,
              week_start = excluded.week_start, time_zone = excluded.time_zone, keys = excluded.keys,
              updated_at_ms = excluded.updated_at_ms
            """, [.text(patient), .text(row.source), .text(row.syncIdentifier), .integer(row.syncVersion),
                  .text(row.weekStart.description), .text(row.timeZone), .text(keys), .integer(row.updatedAt)])
    }

    /// For each key of the report's current version, the live sample of (patient, source, `<report>/<key>`).
    static func liveSamples(_ db: Connection, patient: String, row: Row) throws -> [String: Sample] {
        var samples: [String: Sample] = [:]
        for key in row.keys {
            let id = SyncRules.derivedSyncIdentifier(report: row.syncIdentifier, key: key)
            if let sample = try db.fetchOne("""
                SELECT \(SampleRow.sampleColumns) FROM samples
                WHERE patient = ? AND source = ? AND sync_id = ? AND sync_id IS NOT NULL
                """, [.text(patient), .text(row.source), .text(id)], { try SampleRow.decodeSample($0) }) {
                samples[key] = sample
            }
        }
        return samples
    }

    /// The full report of a row.
    static func report(_ db: Connection, patient: String, row: Row) throws -> WeeklyReport {
        WeeklyReport(syncIdentifier: row.syncIdentifier, syncVersion: row.syncVersion, weekStart: row.weekStart,
                     timeZone: row.timeZone, source: row.source, samples: try liveSamples(db, patient: patient, row: row),
                     updatedAt: SyncRules.date(milliseconds: row.updatedAt))
    }
}
