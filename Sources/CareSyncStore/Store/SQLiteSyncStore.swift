import CareSyncCore
import CareSyncStoreCore
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
    /// The secret sealing client anchors (from `store_meta`).
    public let anchorKey: [UInt8]
    /// Signalled after every commit that changed a patient's feed.
    public let notifier = ChangeNotifier()

    /// A store over a migrated database (`Migrator` must have applied 0001 and later).
    public init(database: Database) throws {
        self.database = database
        self.storeID = try database.read { try StoreQueries.storeID($0) }
        self.anchorKey = try database.read { try StoreQueries.anchorKey($0) }
        // A write only for a database from before 0004; every other open only reads.
        if try database.read({ try ChecksumQueries.needsFill($0) }) {
            try database.write { try ChecksumQueries.fillIfNeeded($0) }
        }
    }

    /// Opens the database at `path`, applies the migrations of `migrationsDirectory`, and opens the store.
    public convenience init(path: String, migrationsDirectory: URL, configuration: Database.Configuration = .init()) throws {
        let database = try Database(path: path, configuration: configuration)
        try Migrator(directory: migrationsDirectory).migrate(database)
        try self.init(database: database)
    }

    /// Runs `body` in one write transaction, then wakes long polls of every patient it changed.
    public func write<T>(_ body: (any SyncTransaction) throws -> T) throws -> T {
        try writeRows { try body($0) }
    }

    /// A write with the concrete writer, for this module's own rows (idempotency records).
    func writeRows<T>(_ body: (SyncWriter) throws -> T) throws -> T {
        let (result, changes) = try database.write { db in try Self.tracked(db, storeID: storeID, body) }
        wake(changes)
        return result
    }

    /// `writeRows` without blocking a thread: suspends until the commit that holds `body` returned.
    func asyncWriteRows<T: Sendable>(_ body: @escaping @Sendable (SyncWriter) throws -> T) async throws -> T {
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
        try writer.recordChecksums()
        try writer.recordDays()
        let head = try StoreQueries.head(db)
        if head != before { try CommitTimes.record(db, head: head, latestNow: writer.latestNow) }
        let changed = head == before ? [] : try db.fetchAll(
            "SELECT DISTINCT patient FROM change_log WHERE seq > ?", [.integer(before)]) { $0.string(0) }
        try OutboxQueries.record(db, patients: changed, head: head, storeID: storeID, now: Date())
        return (result, Changes(patients: changed, head: head))
    }

    /// Wakes the long polls of the patients a committed write changed.
    private func wake(_ changes: Changes) {
        for patient in changes.patients { notifier.signal(patient) }
    }

    // MARK: SyncStore

    /// One page of the feed and its next anchor, read in one read transaction.
    public func changes(_ query: ChangeQuery) throws -> ChangeSet {
        try database.read { db in
            let head = try StoreQueries.head(db)
            let horizon = try StoreQueries.purgeHorizon(db)
            let after = try query.anchor.map {
                try StoreQueries.validate($0, storeID: storeID, head: head, horizon: horizon, db: db)
            } ?? 0
            return try FeedQuery.page(query, after: after, head: head, horizon: horizon, storeID: storeID, db: db,
                                      database: database)
        }
    }

    /// The anchor at the head of the change log.
    public func currentAnchor() throws -> Anchor {
        try database.read { try StoreQueries.headAnchor($0, storeID: storeID) }
    }

    /// The highest position committed before `instant`, by the commit times.
    public func position(committedBefore instant: Date) throws -> Int64 {
        try database.read { try CommitTimes.position($0, committedBefore: instant) }
    }

    /// The write time of the change at `position`.
    public func writeTime(of position: Int64) throws -> Date? {
        try database.read { try CommitTimes.writeTime($0, of: position) }
    }

    /// Begins and commits an empty write transaction: the writer connection works and can take the write lock.
    public func checkWritable() throws {
        try database.write { _ in }
    }

    /// Webhook outbox entries after `id`, oldest first.
    public func outbox(after id: Int64, limit: Int) throws -> [OutboxEntry] {
        try database.read { try OutboxQueries.entries($0, after: id, limit: limit) }
    }

    /// The current version of the report of (patient, source, syncIdentifier).
    public func report(patient: String, syncIdentifier: String, source: String) throws -> WeeklyReport? {
        try database.read { try SQLiteDialect.reports.report($0, patient: patient, source: source, syncIdentifier: syncIdentifier) }
    }

    /// The sources with a report of this id, bytewise.
    public func reportSources(patient: String, syncIdentifier: String) throws -> [String] {
        try database.read { try SQLiteDialect.reports.sources($0, patient: patient, syncIdentifier: syncIdentifier) }
    }

    /// A page of the report list, read in one snapshot.
    public func reports(_ query: ReportListQuery) throws -> ReportPage {
        try database.read { try SQLiteDialect.reports.page($0, query) }
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
            try CommitTimes.prune(db, through: newHorizon)
            return purged
        }
    }

    /// Always granted: one process per database (a SQLite file is served by one `caresync serve`), so its jobs run there.
    public func acquireLease(_ job: LeasedJob) throws -> Bool { true }
}
