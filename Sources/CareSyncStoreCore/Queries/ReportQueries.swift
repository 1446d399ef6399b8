import CareSyncCore
import Foundation

/// The statements of `weekly_reports` in one dialect; parameters in the order each one's comment gives.
public struct ReportSQL: Sendable {
    /// One row: patient, source, sync id.
    public var row: String
    /// The sources with a report of an id, bytewise: patient, sync id.
    public var sources: String
    /// The first list page: patient, from, to, limit.
    public var firstPage: String
    /// A later list page: patient, from, to, then the position's week, sync id and source, limit.
    public var pageAfter: String
    /// Insert or update: patient, source, sync id, version, week start, time zone, keys, updated at.
    public var save: String
    /// The live sample of a report key: patient, source, derived sync id.
    public var liveSample: String
    /// How many reports a patient holds besides one: patient, source, sync id.
    public var countBesides: String
    /// Deletes a report: patient, source, sync id.
    public var delete: String
    /// The columns every row statement selects, in `ReportQueries.Row`'s order.
    public static let columns = "source, sync_id, sync_version, week_start, time_zone, keys, updated_at_ms"

    /// The statements.
    public init(row: String, sources: String, firstPage: String, pageAfter: String, save: String, liveSample: String,
                countBesides: String, delete: String) {
        self.row = row; self.sources = sources; self.firstPage = firstPage; self.pageAfter = pageAfter; self.save = save
        self.liveSample = liveSample; self.countBesides = countBesides; self.delete = delete
    }
}

extension ReportSQL {
    /// The statements in SQL both dialects take, with `p(n)` the dialect's marker of the nth parameter; `bytewise` is
    /// how the dialect orders text bytewise (e.g. `COLLATE "C"`, or nothing), `sampleColumns` its sample row's columns.
    public static func portable(parameter p: (Int) -> String, bytewise: String, sampleColumns: String) -> ReportSQL {
        let page = "SELECT \(columns) FROM weekly_reports WHERE patient = \(p(1)) AND week_start BETWEEN \(p(2)) AND \(p(3))"
        let order = "ORDER BY week_start, sync_id, source LIMIT"
        return ReportSQL(
            row: "SELECT \(columns) FROM weekly_reports WHERE patient = \(p(1)) AND source = \(p(2)) AND sync_id = \(p(3))",
            sources: "SELECT source FROM weekly_reports WHERE patient = \(p(1)) AND sync_id = \(p(2)) ORDER BY source\(bytewise)",
            firstPage: "\(page) \(order) \(p(4))",
            pageAfter: "\(page) AND (week_start, sync_id, source) > (\(p(4)), \(p(5)), \(p(6))) \(order) \(p(7))",
            save: """
                INSERT INTO weekly_reports (patient, source, sync_id, sync_version, week_start, time_zone, keys, updated_at_ms)
                VALUES (\((1...8).map(p).joined(separator: ", ")))
                ON CONFLICT (patient, source, sync_id) DO UPDATE SET sync_version = excluded.sync_version,
                  week_start = excluded.week_start, time_zone = excluded.time_zone, keys = excluded.keys,
                  updated_at_ms = excluded.updated_at_ms
                """,
            liveSample: """
                SELECT \(sampleColumns) FROM samples
                WHERE patient = \(p(1)) AND source = \(p(2)) AND sync_id = \(p(3)) AND sync_id IS NOT NULL
                """,
            countBesides: "SELECT count(*) FROM weekly_reports WHERE patient = \(p(1)) AND NOT (source = \(p(2)) AND sync_id = \(p(3)))",
            delete: "DELETE FROM weekly_reports WHERE patient = \(p(1)) AND source = \(p(2)) AND sync_id = \(p(3))")
    }
}

/// Rows of `weekly_reports` and the live samples they point to, and the report writes (`WeeklyReportPlanner`'s
/// plan), over either backend: only the SQL text (`ReportSQL`) and the sample decoder are the dialect's.
public struct ReportQueries<DB: QueryConnection>: Sendable {
    /// One `weekly_reports` row.
    public struct Row: Sendable {
        /// The posting source.
        public var source: String
        /// The report's sync identifier.
        public var syncIdentifier: String
        /// Its version.
        public var syncVersion: Int64
        /// Its week.
        public var weekStart: CalendarDay
        /// Its time zone.
        public var timeZone: String
        /// The keys of its current version.
        public var keys: [String]
        /// When it was last written, in ms.
        public var updatedAt: Int64
    }

    /// The dialect's statements.
    public let sql: ReportSQL
    /// The dialect's decoder of a sample row (the columns `liveSample` selects).
    public let decodeSample: @Sendable (DB.Row) throws -> Sample

    /// Queries with `sql`, decoding samples with `decodeSample`.
    public init(sql: ReportSQL, decodeSample: @escaping @Sendable (DB.Row) throws -> Sample) {
        self.sql = sql
        self.decodeSample = decodeSample
    }

    private static func decode(_ r: DB.Row) throws -> Row {
        let week = try r.text(3)
        guard let day = CalendarDay(parsing: week) else { throw StoreCorruption("bad week_start \(week)") }
        let keys = try JSONDecoder().decode([String].self, from: Data(try r.text(5).utf8))
        return Row(source: try r.text(0), syncIdentifier: try r.text(1), syncVersion: try r.integer(2), weekStart: day,
                   timeZone: try r.text(4), keys: keys, updatedAt: try r.integer(6))
    }

    /// The report row of (patient, source, syncIdentifier).
    public func row(_ db: DB, patient: String, source: String, syncIdentifier: String) throws -> Row? {
        try db.fetchFirst(sql.row, [.text(patient), .text(source), .text(syncIdentifier)], Self.decode)
    }

    /// The sources with a report of this id, bytewise.
    public func sources(_ db: DB, patient: String, syncIdentifier: String) throws -> [String] {
        try db.fetch(sql.sources, [.text(patient), .text(syncIdentifier)]) { try $0.text(0) }
    }

    /// The candidates of a report list page: up to `maxReports + 1` rows after the query's position, in list order.
    public func rows(_ db: DB, _ query: ReportListQuery) throws -> [Row] {
        var values: [QueryValue] = [.text(query.patient), .text(query.from.description), .text(query.to.description)]
        if let after = query.after {
            values += [.text(after.weekStart.description), .text(after.syncIdentifier), .text(after.source)]
        }
        values.append(.integer(Int64(query.maxReports) + 1))
        return try db.fetch(query.after == nil ? sql.firstPage : sql.pageAfter, values, Self.decode)
    }

    /// A page of the report list, in the connection's snapshot.
    public func page(_ db: DB, _ query: ReportListQuery) throws -> ReportPage {
        let plan = ReportPage.plan(try rows(db, query), query: query, position: {
            ReportPosition(weekStart: $0.weekStart, syncIdentifier: $0.syncIdentifier, source: $0.source)
        }, keyCount: \.keys.count)
        return ReportPage(reports: try plan.rows.map { try report(db, patient: query.patient, row: $0) }, next: plan.next)
    }

    /// The current version of the report of (patient, source, syncIdentifier).
    public func report(_ db: DB, patient: String, source: String, syncIdentifier: String) throws -> WeeklyReport? {
        try row(db, patient: patient, source: source, syncIdentifier: syncIdentifier).map { try report(db, patient: patient, row: $0) }
    }

    /// Inserts or updates a report row.
    public func save(_ db: DB, patient: String, row: Row) throws {
        let keys = String(decoding: try JSONEncoder().encode(row.keys), as: UTF8.self)
        try db.run(sql.save, [.text(patient), .text(row.source), .text(row.syncIdentifier), .integer(row.syncVersion),
                              .text(row.weekStart.description), .text(row.timeZone), .text(keys), .integer(row.updatedAt)])
    }

    /// For each key of the report's current version, the live sample of (patient, source, `<report>/<key>`).
    public func liveSamples(_ db: DB, patient: String, row: Row) throws -> [String: Sample] {
        var samples: [String: Sample] = [:]
        for key in row.keys {
            let id = SyncRules.derivedSyncIdentifier(report: row.syncIdentifier, key: key)
            if let sample = try db.fetchFirst(sql.liveSample, [.text(patient), .text(row.source), .text(id)], decodeSample) {
                samples[key] = sample
            }
        }
        return samples
    }

    /// The full report of a row.
    public func report(_ db: DB, patient: String, row: Row) throws -> WeeklyReport {
        WeeklyReport(syncIdentifier: row.syncIdentifier, syncVersion: row.syncVersion, weekStart: row.weekStart,
                     timeZone: row.timeZone, source: row.source, samples: try liveSamples(db, patient: patient, row: row),
                     updatedAt: SyncRules.date(milliseconds: row.updatedAt))
    }
}
