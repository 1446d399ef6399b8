import CareSyncCore
import Foundation

extension PostgresWriter {
    /// Posts a weekly report by `WeeklyReportPlanner`'s plan, in this transaction.
    func upsertReport(_ input: WeeklyReportInput, patient: String, source: String,
                      now: Date) throws -> (outcome: WeeklyReportUpsertResult.Outcome, report: WeeklyReport) {
        let row = try PostgresReportQueries.row(db, patient: patient, source: source, syncIdentifier: input.syncIdentifier)
        let stored = try row.map { row in
            StoredReportState(syncVersion: row.syncVersion,
                              samples: try PostgresReportQueries.liveSamples(db, patient: patient, row: row))
        }
        let plan = WeeklyReportPlanner.plan(stored: stored, input: input)
        if plan.outcome == .ignored, let row {
            return (.ignored, try PostgresReportQueries.report(db, patient: patient, row: row))
        }
        try applyReportActions(plan.actions, patient: patient, source: source, now: now)
        try flush()
        let newRow = PostgresReportQueries.Row(source: source, syncIdentifier: input.syncIdentifier, syncVersion: input.syncVersion,
                                               weekStart: input.weekStart, timeZone: input.timeZone,
                                               keys: input.samples.map(\.key), updatedAt: SyncRules.milliseconds(now))
        try PostgresReportQueries.save(db, patient: patient, row: newRow)
        return (plan.outcome, try PostgresReportQueries.report(db, patient: patient, row: newRow))
    }

    /// How many reports the patient holds besides (source, syncIdentifier).
    func reportCount(patient: String, besides syncIdentifier: String, of source: String) throws -> Int {
        let count = try db.query("SELECT count(*) FROM weekly_reports WHERE patient = $1 AND NOT (source = $2 AND sync_id = $3)",
                                 [.text(patient), .text(source), .text(syncIdentifier)]).first { try $0.int64(0) }
        return Int(count ?? 0)
    }

    /// Deletes the caller's report and tombstones its live samples (in key order); false when there was none.
    func deleteReport(patient: String, syncIdentifier: String, source: String, now: Date) throws -> Bool {
        guard let row = try PostgresReportQueries.row(db, patient: patient, source: source, syncIdentifier: syncIdentifier) else {
            return false
        }
        let samples = try PostgresReportQueries.liveSamples(db, patient: patient, row: row)
        for key in samples.keys.sorted() { try tombstone(samples[key]!, patient: patient, now: now) }
        try flush()
        try db.query("DELETE FROM weekly_reports WHERE patient = $1 AND source = $2 AND sync_id = $3",
                     [.text(patient), .text(source), .text(syncIdentifier)])
        return true
    }
}
