import CareSyncCore
import Foundation

extension SyncWriter {
    /// Posts a weekly report by `WeeklyReportPlanner`'s plan, in this transaction (the store core's `ReportQueries`).
    public func upsertReport(_ input: WeeklyReportInput, patient: String, source: String,
                             now: Date) throws -> (outcome: WeeklyReportUpsertResult.Outcome, report: WeeklyReport) {
        note(now)
        return try SQLiteDialect.reports.upsert(db, input, patient: patient, source: source, now: now) { actions in
            try applyReportActions(actions, patient: patient, source: source, now: now)
        }
    }

    /// How many reports the patient holds besides (source, syncIdentifier).
    public func reportCount(patient: String, besides syncIdentifier: String, of source: String) throws -> Int {
        try SQLiteDialect.reports.count(db, patient: patient, besides: syncIdentifier, of: source)
    }

    /// Deletes the caller's report and tombstones its live samples (in key order); false when there was none.
    public func deleteReport(patient: String, syncIdentifier: String, source: String, now: Date) throws -> Bool {
        note(now)
        return try SQLiteDialect.reports.delete(db, patient: patient, syncIdentifier: syncIdentifier, source: source) { samples in
            for sample in samples { try tombstone(sample, patient: patient, now: now) }
        }
    }
}
