import CareSyncCore
import CareSyncStoreCore
import Foundation

/// The sync store on PostgreSQL: HealthKit's sync rules (docs/sync-rules.md) over the schema of
/// `migrations/postgresql/0001_store.sql`, with the same guarantees as `SQLiteSyncStore`.
///
/// Every write is one `READ COMMITTED` transaction that first locks the store's head row, so writers of
/// any instance take turns and number their changes in commit order (`ChangeOrdering`); concurrent
/// writes of one instance share a turn and a commit (`PostgresGroupCommit`). A feed page and its next
/// anchor are read in one `REPEATABLE READ` snapshot, so paging never skips or repeats a change. After
/// each commit that changed something, `signal` wakes the patient's long polls in this process.
///
/// ```swift
/// let store = try PostgresSyncStore(configuration: .init(url: url), migrationsDirectory: migrations)
/// let result = try store.upsert(inputs, patient: "p1", source: "org.example.watch", now: Date())
/// let page = try store.changes(ChangeQuery(patient: "p1", anchor: lastAnchor, limit: 500))
/// ```
public final class PostgresSyncStore: SyncStore {
    /// The database the store reads and writes.
    public let database: PostgresDatabase
    /// The id anchors from this store carry (from `store_meta`; replicas and failovers keep it).
    public let storeID: String
    /// The secret sealing client anchors (from `store_meta`, shared by every instance).
    public let anchorKey: [UInt8]
    /// Signalled after every commit that changed a patient's feed: this process's at once, other
    /// instances' through LISTEN/NOTIFY (`PostgresChangeListener`).
    public let notifier = ChangeNotifier()
    let ordering: ChangeOrdering
    private let listener: PostgresChangeListener
    /// The erased ids this instance's writes refuse.
    private let erased = PostgresErasedPatients()
    private let leases: PostgresJobLeases

    /// A store over a migrated database (`PostgresMigrator` must have applied `migrations/postgresql`).
    public convenience init(database: PostgresDatabase) throws {
        try self.init(database: database, ordering: .headRow)
    }

    /// A store numbering its changes by `ordering` (the ordering test's negative control uses another).
    init(database: PostgresDatabase, ordering: ChangeOrdering) throws {
        self.database = database
        self.ordering = ordering
        let storeID = try database.read { db in
            guard let id = try db.query("SELECT value FROM store_meta WHERE key = 'store_id'").first({ try $0.string(0) }),
                  !id.isEmpty else { throw PostgresStoreCorruption("store_meta has no store_id") }
            return id
        }
        self.storeID = storeID
        anchorKey = try database.read { db in
            guard let hex = try db.query("SELECT value FROM store_meta WHERE key = 'anchor_key'").first({ try $0.string(0) }),
                  let key = AnchorKeyText.bytes(hex) else { throw PostgresStoreCorruption("store_meta has no anchor_key of 64 hex digits") }
            return key
        }
        leases = PostgresJobLeases(configuration: database.configuration, storeID: storeID)
        listener = PostgresChangeListener(configuration: database.configuration,
                                          channel: PostgresChangeListener.channel(storeID: storeID), notifier: notifier)
    }

    deinit { listener.stop() }

    /// Opens the database, applies the migrations of `migrationsDirectory` (`migrations/postgresql`), and opens the store.
    public convenience init(configuration: PostgresDatabase.Configuration, migrationsDirectory: URL) throws {
        let database = try PostgresDatabase(configuration)
        try PostgresMigrator(directory: migrationsDirectory).migrate(database)
        try self.init(database: database)
    }

    /// Runs `body` in one write transaction, then wakes long polls of every patient it changed.
    public func write<T>(_ body: (any SyncTransaction) throws -> T) throws -> T {
        let (result, changed) = try database.write { db in
            try Self.tracked(db, storeID: storeID, ordering: ordering, listener: listener, erased: erased, body)
        }
        wake(changed)
        return result
    }

    /// `write` with the concrete writer, without blocking a thread.
    func asyncWriteRows<T: Sendable>(_ body: @escaping @Sendable (PostgresWriter) throws -> T) async throws -> T {
        let (storeID, ordering, listener, erased) = (self.storeID, self.ordering, self.listener, self.erased)
        let (result, changed) = try await database.asyncWrite { db in
            try Self.tracked(db, storeID: storeID, ordering: ordering, listener: listener, erased: erased, body)
        }
        wake(changed)
        return result
    }

    /// Runs `body` with a writer (whose transaction's group takes the head row, and writes the bookkeeping and the
    /// other instances' notifications before its commit) and returns the patients it changed.
    private static func tracked<T>(_ db: PostgresConnection, storeID: String, ordering: ChangeOrdering,
                                   listener: PostgresChangeListener, erased: PostgresErasedPatients,
                                   _ body: (PostgresWriter) throws -> T) throws -> (T, Set<String>) {
        let writer = try PostgresWriter(db: db, storeID: storeID, ordering: ordering, listener: listener, erased: erased)
        let result = try body(writer)
        try writer.stage()
        return (result, writer.changedPatients)
    }

    /// Wakes the long polls of the patients a committed write changed.
    private func wake(_ patients: Set<String>) {
        for patient in patients { notifier.signal(patient) }
    }

    // MARK: Reads

    /// One page of the feed and its next anchor, read in one snapshot.
    public func changes(_ query: ChangeQuery) throws -> ChangeSet {
        try database.read { db in
            let (head, horizon) = try ordering.head(db)
            let after = try query.anchor.map { try validate($0, head: head, horizon: horizon, db: db) } ?? 0
            return try PostgresFeedQuery.page(query, after: after, head: head, horizon: horizon, storeID: storeID, db: db)
        }
    }

    /// The anchor at the head of the change log.
    public func currentAnchor() throws -> Anchor {
        try database.read { db in
            let (head, horizon) = try ordering.head(db)
            return Anchor(storeID: storeID, sequence: head, horizon: horizon)
        }
    }

    /// The highest position committed before `instant`, by the commit times.
    public func position(committedBefore instant: Date) throws -> Int64 {
        try database.read { try CommitTimes.position($0, committedBefore: instant) }
    }

    /// The write time of the change at `position`.
    public func writeTime(of position: Int64) throws -> Date? {
        try database.read { try CommitTimes.writeTime($0, of: position) }
    }

    /// Asks, on the writer connection, whether the server takes writes: not a standby (`pg_is_in_recovery`)
    /// and not read-only (`default_transaction_read_only`, set on a primary being demoted).
    public func checkWritable() throws {
        let readOnly = try database.write { db in
            try db.query("SELECT pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on'").first { try $0.bool(0) }
        }
        guard readOnly == false else {
            throw PostgresError(kind: .readOnly, sqlState: "25006", message: "the database server takes no writes (a standby, or read-only)")
        }
    }

    /// The sequence a client anchor stands for (docs/sync-rules.md): an anchor of an earlier identity of
    /// this store (`store_lineage`) counts as this store's within the range the copy holds.
    func validate(_ anchor: Anchor, head: Int64, horizon: Int64, db: PostgresConnection) throws -> Int64 {
        var anchor = anchor
        if anchor.storeID != storeID {
            guard let validThrough = try db.query("SELECT valid_through FROM store_lineage WHERE store_id = $1",
                                                  [.text(anchor.storeID)]).first({ try $0.int64(0) }),
                  anchor.sequence <= validThrough else { throw SyncError.invalidAnchor }
            anchor.storeID = storeID
        }
        try anchor.validate(storeID: storeID, head: head, storeHorizon: horizon)
        return anchor.sequence
    }

    /// Webhook outbox entries after `id`, oldest first.
    public func outbox(after id: Int64, limit: Int) throws -> [OutboxEntry] {
        try database.read { try PostgresOutbox.entries($0, after: id, limit: limit) }
    }

    /// The current version of the report of (patient, source, syncIdentifier).
    public func report(patient: String, syncIdentifier: String, source: String) throws -> WeeklyReport? {
        try database.read { try PostgresDialect.reports.report($0, patient: patient, source: source, syncIdentifier: syncIdentifier) }
    }

    /// The sources with a report of this id, bytewise.
    public func reportSources(patient: String, syncIdentifier: String) throws -> [String] {
        try database.read { try PostgresDialect.reports.sources($0, patient: patient, syncIdentifier: syncIdentifier) }
    }

    /// A page of the report list, read in one snapshot.
    public func reports(_ query: ReportListQuery) throws -> ReportPage {
        try database.read { try PostgresDialect.reports.page($0, query) }
    }

    // MARK: Jobs

    /// Whether this instance holds `job`'s lease, taking it when free (`PostgresJobLeases`: released when this
    /// store closes or its process dies, then taken by another instance).
    public func acquireLease(_ job: LeasedJob) throws -> Bool { try leases.acquire(job) }

    /// Purges tombstones deleted before `horizon`; anchors below the highest purged sequence become expired.
    /// Holds the head row like a write, so no change commits below the new horizon while it runs.
    public func purgeTombstones(before horizon: Date) throws -> Int {
        try database.write { db in
            _ = try ordering.begin(db)
            let cutoff = SyncRules.milliseconds(horizon)
            let purged = try db.query("""
                WITH gone AS (DELETE FROM tombstones WHERE deleted_at_ms < $1 RETURNING seq) SELECT count(*), max(seq) FROM gone
                """, [.int64(cutoff)])
            guard let (count, highest) = try purged.first({ (try $0.int64(0), try $0.optionalInt64(1)) }), let highest else { return 0 }
            let raised = try db.query("UPDATE store_head SET purge_horizon = greatest(purge_horizon, $1) RETURNING purge_horizon",
                                      [.int64(highest)]).first { try $0.int64(0) } ?? highest
            try CommitTimes.prune(db, through: raised)
            return Int(count)
        }
    }

    /// Forgets idempotency records expired at `now`; returns how many.
    @discardableResult
    public func purgeIdempotencyRecords(now: Date) throws -> Int {
        try database.write { db in
            try db.query("DELETE FROM idempotency_records WHERE expires_at_ms <= $1", [.int64(SyncRules.milliseconds(now))]).affected
        }
    }
}
