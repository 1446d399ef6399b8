import Foundation

/// The remote store of the WWDC20 HealthKit sync design; the SQLite store and the test model both conform.
///
/// Every write is one transaction and follows HealthKit's rules, keyed by (patient, source, syncIdentifier):
/// a higher `syncVersion` replaces the stored sample (which leaves a tombstone; the new one gets a new uuid),
/// an equal or lower one is ignored. Each committed change takes the next sequence of the store's
/// change log, so anchors order every change. Writes go through a transaction (`SyncTransaction`), which also
/// carries the request's audit record and idempotency record. Reads are synchronous and thread-safe. Its
/// `JobLeases` decide which instance runs the jobs that must run once (tombstone purge, idempotency expiry, webhooks).
public protocol SyncStore: JobLeases {
    /// The id anchors from this store carry.
    var storeID: String { get }
    /// The secret that seals the anchors handed to clients (32 bytes, made once per database by a migration, so
    /// every instance on the database shares it).
    var anchorKey: [UInt8] { get }

    /// Signalled after every commit that changed a patient's feed: what wakes long polls, never a controller.
    var notifier: ChangeNotifier { get }

    /// Runs `body` in one write transaction, blocking the caller; a throw rolls everything back.
    func write<T>(_ body: (any SyncTransaction) throws -> T) throws -> T

    /// Runs `body` in one write transaction without blocking a thread. With a claim, the key is looked up and
    /// the answer recorded in that same transaction: a retry of the same request is `.replayed`, another
    /// request with the key is `.keyReused`, and neither runs `body`.
    func write<Value: Sendable>(
        idempotency: IdempotencyClaim?, _ body: @escaping @Sendable (any SyncTransaction) throws -> WriteAnswer<Value>
    ) async throws -> IdempotentWriteResult<Value>

    /// One page of the anchored change feed. Throws `SyncError.invalidAnchor` / `.anchorExpired`.
    func changes(_ query: ChangeQuery) throws -> ChangeSet

    /// The anchor at the head of the change log now (what a reader with nothing new would be handed).
    func currentAnchor() throws -> Anchor

    /// The highest change-log position committed before `instant` (0: none), by the commit times (`WriteTimes`): the
    /// changes after it are exactly those committed at or after `instant`. Positions whose commit times were pruned
    /// (below the purge horizon) answer lower, so an anchor at the answer expires as an old anchor does.
    func position(committedBefore instant: Date) throws -> Int64

    /// The write time of the change at `position` (the first commit at or after it), nil for position 0 or one past
    /// the last commit.
    func writeTime(of position: Int64) throws -> Date?

    /// Throws unless a write could commit now: the database is reachable and not read-only (`/readyz`).
    func checkWritable() throws

    /// `HKStatisticsCollectionQuery` over the patient's live samples, all from one snapshot; throws
    /// `SyncError.validationFailed` for a query the type does not allow.
    func statistics(patient: String, query: StatisticsQuery) throws -> StatisticsCollection

    /// Per day from `first` through `last` in `zone`, source and type: the live samples that start that day and a cumulative
    /// type's prorated sum (`SampleDay`), in no particular order, from one snapshot: what status and monitoring read days
    /// with data, a source's newest sample and weekly totals from (docs/status.md). The SQL stores keep these figures up
    /// to date as writes commit, in the patient's time zone; another zone is computed from the time index.
    /// Each patient's in its own zone (`patients`: id to zone), all from one snapshot; a patient with no figures maps
    /// to an empty list. A care team's status reads its patients in this one call.
    func sampleDays(patients: [String: TimeZone], from first: CalendarDay, through last: CalendarDay) throws -> [String: [SampleDay]]

    /// The live samples of `type` with the latest starts (a tie: the greater uuid first), newest first, at most `limit`,
    /// from one snapshot: the latest six-minute walks of a status (docs/status.md), read through the time index.
    /// Each patient's, all from one snapshot (a patient without any maps to an empty list).
    func newestSamples(patients: [String], type: SampleType, limit: Int) throws -> [String: [Sample]]

    /// The patient's replica checksums as of `anchor` (nil: the head): per type, the count and digest sum of the
    /// samples live then, from running sums and the changes after `anchor` (no scan of the patient's samples).
    /// Throws `SyncError.invalidAnchor` / `.anchorExpired` as the feed does.
    func checksums(patient: String, at anchor: Anchor?) throws -> ReplicaChecksums

    /// Webhook outbox entries after `id`, oldest first: one per commit and patient whose feed it changed, recorded
    /// in that commit's transaction (a write that rolls back leaves none) while at least one webhook subscription
    /// exists; with none, a commit records nothing, so a store without webhooks pays nothing for them.
    /// `WebhookStore.fanOut` consumes them.
    func outbox(after id: Int64, limit: Int) throws -> [OutboxEntry]

    /// The current version of the report of (patient, source, syncIdentifier), or nil.
    func report(patient: String, syncIdentifier: String, source: String) throws -> WeeklyReport?

    /// The sources that have a report with this identifier for the patient, in bytewise order.
    func reportSources(patient: String, syncIdentifier: String) throws -> [String]

    /// A page of the reports whose week starts within the query's range, in list order (`ReportPosition`), holding
    /// whole reports within the query's budgets (`ReportPage.taken`), and where the next page starts.
    func reports(_ query: ReportListQuery) throws -> ReportPage

    /// Purges tombstones deleted before `horizon` and records it; older anchors become `anchorExpired`.
    func purgeTombstones(before horizon: Date) throws -> Int

    /// Forgets idempotency records expired at `now`; returns how many.
    @discardableResult
    func purgeIdempotencyRecords(now: Date) throws -> Int
}

extension SyncStore {
    /// One patient's `sampleDays(patients:from:through:)`.
    public func sampleDays(patient: String, zone: TimeZone, from first: CalendarDay, through last: CalendarDay) throws -> [SampleDay] {
        try sampleDays(patients: [patient: zone], from: first, through: last)[patient] ?? []
    }

    /// One patient's `newestSamples(patients:type:limit:)`.
    public func newestSamples(patient: String, type: SampleType, limit: Int) throws -> [Sample] {
        try newestSamples(patients: [patient], type: type, limit: limit)[patient] ?? []
    }

    /// `sampleDays` from the change feed (every live sample tallied), for stores without kept figures: the reference
    /// model's, and the oracle the stores' contract tests hold the SQL against.
    public func sampleDays(patients: [String: TimeZone], from first: CalendarDay, through last: CalendarDay) throws -> [String: [SampleDay]] {
        var figures: [String: [SampleDay]] = [:]
        for (patient, zone) in patients {
            var tally = SampleDayTally(zone: zone, from: first, through: last)
            var query = ChangeQuery(patient: patient, limit: 5_000)
            repeat {
                let page = try changes(query)
                for s in page.samples {
                    tally.add(source: s.source, type: s.type, start: SyncRules.milliseconds(s.start), end: SyncRules.milliseconds(s.end), value: s.value)
                }
                query.anchor = page.anchor
                if !page.hasMore { break }
            } while true
            figures[patient] = tally.days
        }
        return figures
    }

    /// `newestSamples` from the change feed (filtered by type), sorted here: the reference model's, and the oracle.
    public func newestSamples(patients: [String], type: SampleType, limit: Int) throws -> [String: [Sample]] {
        var newest: [String: [Sample]] = [:]
        for patient in patients {
            var samples: [Sample] = []
            var query = ChangeQuery(patient: patient, types: [type], limit: 5_000)
            repeat {
                let page = try changes(query)
                samples += page.samples
                query.anchor = page.anchor
                if !page.hasMore { break }
            } while true
            newest[patient] = Array(samples.sorted { ($0.start, $0.uuid.uuidString) > ($1.start, $1.uuid.uuidString) }.prefix(max(0, limit)))
        }
        return newest
    }

    /// Applies a batch of samples from `source` for `patient` in one transaction, in order.
    public func upsert(_ samples: [SampleInput], patient: String, source: String, now: Date) throws -> UpsertBatchResult {
        try write { w in
            let results = try w.upsert(samples, patient: patient, source: source, now: now)
            return UpsertBatchResult(anchor: try w.headAnchor(), results: results)
        }
    }

    /// Deletes samples of `source` by uuid and by sync identifier; each deletion leaves a tombstone.
    public func delete(uuids: [UUID], syncIdentifiers: [String], patient: String, source: String, now: Date) throws -> DeleteBatchResult {
        try write { w in
            let results = try w.delete(uuids: uuids, syncIdentifiers: syncIdentifiers, patient: patient, source: source, now: now)
            return DeleteBatchResult(anchor: try w.headAnchor(), results: results)
        }
    }

    /// Posts a weekly report: new or higher version stored by the derived-identifier rules, else ignored.
    public func upsertReport(_ report: WeeklyReportInput, patient: String, source: String, now: Date) throws -> WeeklyReportUpsertResult {
        try write { w in
            let (outcome, stored) = try w.upsertReport(report, patient: patient, source: source, now: now)
            return WeeklyReportUpsertResult(outcome: outcome, anchor: try w.headAnchor(), report: stored)
        }
    }

    /// Deletes a report of `source` and tombstones its samples; nil when there was none.
    public func deleteReport(patient: String, syncIdentifier: String, source: String, now: Date) throws -> Anchor? {
        try write { w in
            try w.deleteReport(patient: patient, syncIdentifier: syncIdentifier, source: source, now: now) ? try w.headAnchor() : nil
        }
    }
}
