import CareSyncCore
import Foundation

extension PostgresWriter {
    /// Posts a weekly report by `WeeklyReportPlanner`'s plan, in this transaction (the store core's `ReportQueries`);
    /// the plan's sample rows are written before the report row.
    func upsertReport(_ input: WeeklyReportInput, patient: String, source: String,
                      now: Date) throws -> (outcome: WeeklyReportUpsertResult.Outcome, report: WeeklyReport) {
        note(now)
        return try PostgresDialect.reports.upsert(db, input, patient: patient, source: source, now: now) { actions in
            try applyReportActions(actions, patient: patient, source: source, now: now)
            try flush()
        }
    }

    /// How many reports the patient holds besides (source, syncIdentifier).
    func reportCount(patient: String, besides syncIdentifier: String, of source: String) throws -> Int {
        try PostgresDialect.reports.count(db, patient: patient, besides: syncIdentifier, of: source)
    }

    /// Deletes the caller's report and tombstones its live samples (in key order, written before the row goes);
    /// false when there was none.
    func deleteReport(patient: String, syncIdentifier: String, source: String, now: Date) throws -> Bool {
        note(now)
        return try PostgresDialect.reports.delete(db, patient: patient, syncIdentifier: syncIdentifier, source: source) { samples in
            for sample in samples { try tombstone(sample, patient: patient, now: now) }
            try flush()
        }
    }
}
