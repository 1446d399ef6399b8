import CareSyncCore
import Foundation
import CareSyncLocking

/// The sync rules in plain Swift collections: the oracle every `SyncStore` is tested against.
///
/// Thread-safe (one lock around everything); every write is atomic: it works on a copy of the state
/// and commits it only when the whole request succeeded. The exact semantics are in docs/sync-rules.md.
public final class InMemorySyncStore: SyncStore, Sendable {
    public let storeID: String
    /// A random anchor key of this store's own.
    public let anchorKey: [UInt8] = (0..<32).map { _ in UInt8.random(in: 0...255) }
    /// Signalled after every commit that changed a patient's feed.
    public let notifier = ChangeNotifier()
    private let makeUUID: @Sendable () -> UUID
    private let state = Locked(ModelState())
    /// Where committed audit records go (the access store sharing this "database"), if anywhere.
    private let access: InMemoryAccessStore?

    /// An empty store; audit records written in its transactions land in `access`.
    public init(storeID: String = UUID().uuidString, access: InMemoryAccessStore? = nil,
                makeUUID: @escaping @Sendable () -> UUID = { UUID() }) {
        self.storeID = storeID
        self.access = access
        self.makeUUID = makeUUID
    }

    func withState<T>(_ body: (inout ModelState) throws -> T) rethrows -> T {
        try state.withLock { try body(&$0) }
    }

    func read<T>(_ body: (ModelState) throws -> T) rethrows -> T {
        try state.withLock { try body($0) }
    }

    /// Runs `body` on a copy of the state and keeps the copy only if it returns: all or nothing.
    public func write<T>(_ body: (any SyncTransaction) throws -> T) throws -> T {
        try transact { try body($0) }
    }

    private func transact<T>(_ body: (ModelTransaction) throws -> T) throws -> T {
        let (result, changed) = try withState { state in
            let transaction = ModelTransaction(state: state, storeID: storeID, makeUUID: makeUUID)
            let result = try body(transaction)
            let before = state.head
            state = transaction.state
            state.recordCommit(after: before, latestNow: transaction.latestNow)
            state.recordOutbox(transaction.changedPatients, storeID: storeID, now: Date())
            access?.append(transaction.audit)
            return (result, transaction.changedPatients)
        }
        for patient in changed { notifier.signal(patient) }
        return result
    }

    /// A keyed write: a retry of the same request gets the first answer, another request with the key is refused.
    public func write<Value: Sendable>(
        idempotency claim: IdempotencyClaim?, _ body: @escaping @Sendable (any SyncTransaction) throws -> WriteAnswer<Value>
    ) async throws -> IdempotentWriteResult<Value> {
        try transact { model in
            if let claim, let record = model.state.idempotency[claim.key], record.expiresAt > claim.now {
                return record.requestHash == claim.requestHash ? .replayed(record) : .keyReused
            }
            let answer = try body(model)
            if let claim {
                model.state.idempotency[claim.key] = IdempotencyRecord(
                    requestHash: claim.requestHash, status: answer.status, response: answer.response,
                    createdAt: claim.now, expiresAt: claim.now.addingTimeInterval(claim.lifetime))
                model.state.idempotencyPatients[claim.key] = claim.patient
            }
            return .performed(answer.value)
        }
    }

    /// The head of the change log, stamped with the purge horizon.
    public func currentAnchor() throws -> Anchor {
        read { $0.headAnchor(storeID) }
    }

    /// The highest position committed before `instant`, by the commit times.
    public func position(committedBefore instant: Date) throws -> Int64 {
        read { $0.position(committedBefore: instant) }
    }

    /// The write time of the change at `position`.
    public func writeTime(of position: Int64) throws -> Date? {
        read { $0.writeTime(of: position) }
    }

    /// Memory always takes a write.
    public func checkWritable() throws {}

    /// One page of the feed: each uuid's latest entry after the anchor, in sequence order.
    public func changes(_ query: ChangeQuery) throws -> ChangeSet {
        try read { state in try state.changes(query, storeID: storeID) }
    }

    /// Webhook outbox entries after `id`, oldest first.
    public func outbox(after id: Int64, limit: Int) throws -> [OutboxEntry] {
        read { state in Array(state.outbox.lazy.filter { $0.id > id }.prefix(limit)) }
    }

    /// Takes up to `limit` outbox entries off the outbox, oldest first, and hands them to `body` under the lock.
    func takeOutbox<T>(limit: Int, _ body: ([OutboxEntry]) throws -> T) rethrows -> T {
        try withState { state in
            let taken = Array(state.outbox.prefix(limit))
            let result = try body(taken)
            state.outbox.removeFirst(taken.count)
            return result
        }
    }

    /// Records alert events in the outbox, as a database store does in the alert write's transaction; nothing while no
    /// subscription exists. The lock order is the alert store's, then this store's.
    func recordAlertEvents(_ events: [AlertEvent]) {
        withState { state in
            guard state.subscriptions > 0 else { return }
            for e in events {
                state.outboxHead += 1
                state.outbox.append(OutboxEntry(id: state.outboxHead, patient: e.patient, sequence: 0, anchor: "", time: e.time,
                                                event: e.kind.rawValue,
                                                alert: WebhookAlert(id: e.alertID, rule: e.rule.rawValue, careTeam: e.careTeam)))
            }
        }
    }

    /// Runs `add` under the lock with the highest outbox id handed out (the new subscription receives only later
    /// entries), and counts the subscription if it returns. The lock order is this store's, then the webhook store's.
    func subscribe(_ add: (Int64) throws -> Void) rethrows {
        try withState { state in
            try add(state.outboxHead)
            state.subscriptions += 1
        }
    }

    /// Runs `remove` under the lock and uncounts a subscription if it removed one.
    func unsubscribe(_ remove: () -> Bool) -> Bool {
        withState { state in
            guard remove() else { return false }
            state.subscriptions -= 1
            return true
        }
    }

    /// The report of (patient, source, syncIdentifier), or nil.
    public func report(patient: String, syncIdentifier: String, source: String) throws -> WeeklyReport? {
        read { state in
            state.reports.first { $0.key.patient == patient && $0.key.syncIdentifier == syncIdentifier && $0.key.source == source }
                .map { state.weeklyReport($0.value, key: $0.key) }
        }
    }

    /// The sources with a report of this id, bytewise.
    public func reportSources(patient: String, syncIdentifier: String) throws -> [String] {
        read { state in
            state.reports.keys.filter { $0.patient == patient && $0.syncIdentifier == syncIdentifier }.map(\.source)
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
    }

    /// A page of the reports whose week starts in `[from, to]`, by week start, id and source (bytewise).
    public func reports(_ query: ReportListQuery) throws -> ReportPage {
        read { state in
            func position(_ entry: (key: ModelState.Key, value: ModelState.Report)) -> ReportPosition {
                ReportPosition(weekStart: entry.value.weekStart, syncIdentifier: entry.key.syncIdentifier, source: entry.key.source)
            }
            let candidates = state.reports
                .filter { $0.key.patient == query.patient && $0.value.weekStart >= query.from && $0.value.weekStart <= query.to }
                .filter { entry in query.after.map { $0 < position(entry) } ?? true }
                .sorted { position($0) < position($1) }
                .prefix(query.maxReports + 1)
            let plan = ReportPage.plan(Array(candidates), query: query, position: position, keyCount: \.value.keys.count)
            return ReportPage(reports: plan.rows.map { state.weeklyReport($0.value, key: $0.key) }, next: plan.next)
        }
    }

    /// Purges tombstones deleted before `horizon` and raises the purge horizon.
    public func purgeTombstones(before horizon: Date) throws -> Int {
        withState { state in
            let purged = state.tombstones.values.filter { $0.object.deletedAt < horizon }
            for tomb in purged {
                state.tombstones[ModelState.SampleID(patient: tomb.patient, uuid: tomb.object.uuid)] = nil
                state.log[Int(tomb.sequence - 1)] = nil
                state.purgeHorizon = max(state.purgeHorizon, tomb.sequence)
            }
            if !purged.isEmpty { state.pruneCommitTimes() }
            return purged.count
        }
    }

    /// Forgets idempotency records expired at `now`.
    public func purgeIdempotencyRecords(now: Date) throws -> Int {
        withState { state in
            let before = state.idempotency.count
            state.idempotency = state.idempotency.filter { $0.value.expiresAt > now }
            return before - state.idempotency.count
        }
    }

    /// Always granted: one process per database (memory belongs to its process), so its jobs run there.
    public func acquireLease(_ job: LeasedJob) throws -> Bool { true }
}
