import CareSyncCore
import Foundation

extension ReportQueries {
    /// Posts a weekly report by `WeeklyReportPlanner`'s plan, in the caller's write transaction: `apply` carries out
    /// the plan's sample actions (and writes any rows it buffered) before the report row is saved.
    public func upsert(_ db: DB, _ input: WeeklyReportInput, patient: String, source: String, now: Date,
                       apply: ([ReportSampleAction]) throws -> Void) throws -> (outcome: WeeklyReportUpsertResult.Outcome, report: WeeklyReport) {
        let row = try row(db, patient: patient, source: source, syncIdentifier: input.syncIdentifier)
        let stored = try row.map { row in
            StoredReportState(syncVersion: row.syncVersion, samples: try liveSamples(db, patient: patient, row: row))
        }
        let plan = WeeklyReportPlanner.plan(stored: stored, input: input)
        if plan.outcome == .ignored, let row {
            return (.ignored, try report(db, patient: patient, row: row))
        }
        try apply(plan.actions)
        let newRow = Row(source: source, syncIdentifier: input.syncIdentifier, syncVersion: input.syncVersion,
                         weekStart: input.weekStart, timeZone: input.timeZone,
                         keys: input.samples.map(\.key), updatedAt: SyncRules.milliseconds(now))
        try save(db, patient: patient, row: newRow)
        return (plan.outcome, try report(db, patient: patient, row: newRow))
    }

    /// How many reports the patient holds besides (source, syncIdentifier).
    public func count(_ db: DB, patient: String, besides syncIdentifier: String, of source: String) throws -> Int {
        Int(try db.fetchFirst(sql.countBesides, [.text(patient), .text(source), .text(syncIdentifier)]) { try $0.integer(0) } ?? 0)
    }

    /// Deletes the caller's report after `tombstone` removed its live samples (given in key order, rows written);
    /// false when there was none.
    public func delete(_ db: DB, patient: String, syncIdentifier: String, source: String,
                       tombstone: ([Sample]) throws -> Void) throws -> Bool {
        guard let row = try row(db, patient: patient, source: source, syncIdentifier: syncIdentifier) else { return false }
        let samples = try liveSamples(db, patient: patient, row: row)
        try tombstone(samples.keys.sorted().map { samples[$0]! })
        try db.run(sql.delete, [.text(patient), .text(source), .text(syncIdentifier)])
        return true
    }
}
