import CareSyncCore
import Foundation

/// The sync store on SQLite: HealthKit's sync rules (docs/sync-rules.md) over the schema of
/// `migrations/0001_sync_store.sql`.
///
/// Every write runs in a `BEGIN IMMEDIATE` transaction on the single writer connection (concurrent writes
/// may share one, each in its own savepoint: `GroupCommit`); every change takes its sequence from the
/// AUTOINCREMENT `change_log` inside it. A feed page and its next anchor
/// are read in one read transaction, so paging never skips or repeats a change. After each commit
/// that changed something, `signal` wakes the patient's long polls.
///
/// ```swift
/// let store = try SQLiteSyncStore(database: database)   // migrations already applied
/// let result = try store.upsert(inputs, patient: "p1", source: "org.example.watch", now: Date())
/// let page = try store.changes(ChangeQuery(patient: "p1", anchor: lastAnchor, limit: 500))
/// ```
public final class SQLiteSyncStore: SyncStore {
    /// The database the store reads and writes.
    public let database: Database
    /// The id anchors from this store carry (from `store_meta`).
    public let storeID: String
    /// Per-patient change notifications, fired after commit.
    public let signal = ChangeSignal()

    /// A store over a migrated database (`Migrator` must have applied 0001 and later).
    public init(database: Database) throws {
        self.database = database
        self.storeID = try database.read { try StoreQueries.storeID($0) }
    }

    /// Opens the database at `path`, applies the migrations of `migrationsDirectory`, and opens the store.
    public convenience init(path: String, migrationsDirectory: URL, configuration: Database.Configuration = .init()) throws {
        let database = try Database(path: path, configuration: configuration)
        try Migrator(directory: migrationsDirectory).migrate(database)
        try self.init(database: database)
    }

    /// Runs `body` in one write transaction with the store's writes available, then wakes long polls of
    /// every patient it changed. Use it to combine a sync write with your own rows (audit, idempotency).
    public func write<T>(_ body: (SyncWriter) throws -> T) throws -> T {
        let (result, changes) = try database.write { db in try Self.tracked(db, storeID: storeID, body) }
        wake(changes)
        return result
    }

    /// `write` without blocking a thread: suspends until the commit that holds `body` returned.
    public func asyncWrite<T: Sendable>(_ body: @escaping @Sendable (SyncWriter) throws -> T) async throws -> T {
        let storeID = self.storeID
        let (result, changes) = try await database.asyncWrite { db in try Self.tracked(db, storeID: storeID, body) }
        wake(changes)
        return result
    }

    /// The patients a write changed, and the head of the log after it.
    struct Changes: Sendable {
        let patients: [String]
        let head: Int64
    }

    /// Runs `body` with a writer and records which patients it changed.
    private static func tracked<T>(_ db: Connection, storeID: String, _ body: (SyncWriter) throws -> T) throws -> (T, Changes) {
        let before = try StoreQueries.head(db)
        let writer = SyncWriter(db: db, storeID: storeID)
        let result = try body(writer)
        try writer.recordSpans()
        let head = try StoreQueries.head(db)
        let changed = head == before ? [] : try db.fetchAll(
            "SELECT DISTINCT patient FROM change_log WHERE seq > ?", [.integer(before)]) { $0.string(0) }
        return (result, Changes(patients: changed, head: head))
    }

    /// Wakes the long polls of the patients a committed write changed.
    private func wake(_ changes: Changes) {
        for patient in changes.patients { signal.notify(patient: patient, sequence: changes.head) }
    }

    // MARK: SyncStore

    /// Applies a batch in one transaction, in order (HealthKit's version rules).
    public func upsert(_ samples: [SampleInput], patient: String, source: String, now: Date) throws -> UpsertBatchResult {
        try write { w in
            let results = try w.upsert(samples, patient: patient, source: source, now: now)
            return UpsertBatchResult(anchor: try w.headAnchor(), results: results)
        }
    }

    /// Deletes the caller's samples by uuid and sync identifier, leaving tombstones.
    public func delete(uuids: [UUID], syncIdentifiers: [String], patient: String, source: String, now: Date) throws -> DeleteBatchResult {
        try write { w in
            let results = try w.delete(uuids: uuids, syncIdentifiers: syncIdentifiers, patient: patient, source: source, now: now)
            return DeleteBatchResult(anchor: try w.headAnchor(), results: results)
        }
    }

    /// One page of the feed and its next anchor, read in one read transaction.
    public func changes(_ query: ChangeQuery) throws -> ChangeSet {
        try database.read { db in
            let head = try StoreQueries.head(db)
            let horizon = try StoreQueries.purgeHorizon(db)
            let after = try query.anchor.map {
                try StoreQueries.validate($0, storeID: storeID, head: head, horizon: horizon, db: db)
            } ?? 0
            return try FeedQuery.page(query, after: after, head: head, horizon: horizon, storeID: storeID, db: db)
        }
    }

    /// The anchor at the head of the change log.
    public func currentAnchor() throws -> Anchor {
        try database.read { try StoreQueries.headAnchor($0, storeID: storeID) }
    }

    /// Posts a weekly report in one transaction.
    public func upsertReport(_ report: WeeklyReportInput, patient: String, source: String, now: Date) throws -> WeeklyReportUpsertResult {
        try write { w in
            let (outcome, stored) = try w.upsertReport(report, patient: patient, source: source, now: now)
            return WeeklyReportUpsertResult(outcome: outcome, anchor: try w.headAnchor(), report: stored)
        }
    }

    /// The current version of a report from any source (latest update wins).
    public func report(patient: String, syncIdentifier: String) throws -> WeeklyReport? {
        try database.read { db in
            try ReportQueries.latestRow(db, patient: patient, syncIdentifier: syncIdentifier)
                .map { try ReportQueries.report(db, patient: patient, row: $0) }
        }
    }

    /// Reports whose week starts within [from, to].
    public func reports(patient: String, from: CalendarDay, to: CalendarDay) throws -> [WeeklyReport] {
        try database.read { db in
            try ReportQueries.rows(db, patient: patient, from: from, to: to).map { try ReportQueries.report(db, patient: patient, row: $0) }
        }
    }

    /// Deletes the caller's report and tombstones its samples; nil when it had none.
    public func deleteReport(patient: String, syncIdentifier: String, source: String, now: Date) throws -> Anchor? {
        try write { w in
            try w.deleteReport(patient: patient, syncIdentifier: syncIdentifier, source: source, now: now) ? try w.headAnchor() : nil
        }
    }

    /// Purges tombstones deleted before `horizon`; anchors below the highest purged sequence become expired.
    public func purgeTombstones(before horizon: Date) throws -> Int {
        try database.write { db in
            let cutoff = SyncRules.milliseconds(horizon)
            guard let highest = try db.scalarInt64("SELECT max(seq) FROM tombstones WHERE deleted_at_ms < ?", [.integer(cutoff)]) else {
                return 0
            }
            try db.execute("DELETE FROM tombstones WHERE deleted_at_ms < ?", [.integer(cutoff)])
            let purged = db.changes
            let newHorizon = max(try StoreQueries.purgeHorizon(db), highest)
            try StoreQueries.setMeta(db, "purge_horizon", String(newHorizon))
            // The log below the horizon serves no reader any more; AUTOINCREMENT still never reuses its numbers.
            try db.execute("DELETE FROM change_log WHERE seq <= ?", [.integer(newHorizon)])
            return purged
        }
    }

    // MARK: Long poll

    /// Calls `callback` when a change of `patient` after `anchor` commits, after `timeout` seconds, or on cancel.
    @discardableResult
    public func observeChanges(patient: String, after anchor: Anchor, timeout: TimeInterval,
                               _ callback: @escaping @Sendable (ChangeWaitResult) -> Void) -> ChangeObservation {
        signal.observe(patient: patient, after: anchor.sequence, timeout: timeout, callback)
    }

    /// Suspends until a change of `patient` after `anchor` commits, or `timeout` seconds pass.
    public func waitForChanges(patient: String, after anchor: Anchor, timeout: TimeInterval) async -> ChangeWaitResult {
        await signal.wait(patient: patient, after: anchor.sequence, timeout: timeout)
    }
}
