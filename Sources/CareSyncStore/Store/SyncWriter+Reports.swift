import CareSyncCore
import Foundation

extension SyncWriter {
    /// Posts a weekly report by `WeeklyReportPlanner`'s plan, in this transaction.
    public func upsertReport(_ input: WeeklyReportInput, patient: String, source: String,
                             now: Date) throws -> (outcome: WeeklyReportUpsertResult.Outcome, report: WeeklyReport) {
        let row = try ReportQueries.row(db, patient: patient, source: source, syncIdentifier: input.syncIdentifier)
        let stored = try row.map { row in
            StoredReportState(syncVersion: row.syncVersion,
                              samples: try ReportQueries.liveSamples(db, patient: patient, row: row))
        }
        let plan = WeeklyReportPlanner.plan(stored: stored, input: input)
        if plan.outcome == .ignored, let row {
            return (.ignored, try ReportQueries.report(db, patient: patient, row: row))
        }
        try applyReportActions(plan.actions, patient: patient, source: source, now: now)
        let newRow = ReportQueries.Row(source: source, syncIdentifier: input.syncIdentifier, syncVersion: input.syncVersion,
                                       weekStart: input.weekStart, timeZone: input.timeZone,
                                       keys: input.samples.map(\.key), updatedAt: SyncRules.milliseconds(now))
        try ReportQueries.save(db, patient: patient, row: newRow)
        return (plan.outcome, try ReportQueries.report(db, patient: patient, row: newRow))
    }

    /// How many reports the patient holds besides (source, syncIdentifier).
    public func reportCount(patient: String, besides syncIdentifier: String, of source: String) throws -> Int {
        Int(try db.scalarInt64("SELECT count(*) FROM weekly_reports WHERE patient = ? AND NOT (source = ? AND sync_id = ?)",
                               [.text(patient), .text(source), .text(syncIdentifier)]) ?? 0)
    }

    /// Deletes the caller's report and tombstones its live samples (in key order); false when there was none.
    public func deleteReport(patient: String, syncIdentifier: String, source: String, now: Date) throws -> Bool {
        guard let row = try ReportQueries.row(db, patient: patient, source: source, syncIdentifier: syncIdentifier) else {
            return false
        }
        let samples = try ReportQueries.liveSamples(db, patient: patient, row: row)
        for key in samples.keys.sorted() { try tombstone(samples[key]!, patient: patient, now: now) }
        try db.execute("DELETE FROM weekly_reports WHERE patient = ? AND source = ? AND sync_id = ?",
                       [.text(patient), .text(source), .text(syncIdentifier)])
        return true
    }
}
