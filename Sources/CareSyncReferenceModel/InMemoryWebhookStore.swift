import CareSyncCore
import Foundation
import CareSyncLocking

/// Webhook subscriptions and deliveries in plain collections, fed by an `InMemorySyncStore`'s outbox: the oracle of
/// the webhook contract tests.
public final class InMemoryWebhookStore: WebhookStore {
    private struct Subscription {
        var record: WebhookSubscription
        var watermark: Int64
        var paused = false
        var nextSequence: Int64 = 1
        var lastDelivered: Int64 = 0
        var failingSince: Date?
        /// Deliveries up to this sequence are never updated by a change (a replay requeued them).
        var coalesceFloor: Int64 = 0
        /// Deliveries dropped over the cap.
        var dropped = 0
        /// Deliveries by sequence.
        var deliveries: [Int64: Delivery] = [:]
    }
    private struct Delivery {
        enum State { case pending, delivered, failed }
        var entry: OutboxEntry
        var state = State.pending
        var attempts = 0
        var firstAttemptAt: Date?
        var nextAttemptAt: Date
        var completedAt: Date?
    }
    private let state = Locked<[String: Subscription]>([:])
    private let sync: InMemorySyncStore
    private let access: InMemoryAccessStore

    /// Subscriptions fed by `sync`'s outbox, matching care teams of `access`.
    public init(sync: InMemorySyncStore, access: InMemoryAccessStore) {
        self.sync = sync; self.access = access
    }

    public func createSubscription(_ subscription: WebhookSubscription) throws {
        try sync.subscribe { watermark in
            try state.withLock { s in
                guard s[subscription.id] == nil else { throw WebhookStoreError.alreadyExists(subscription.id) }
                s[subscription.id] = Subscription(record: subscription, watermark: watermark)
            }
        }
    }

    public func subscriptions() throws -> [WebhookSubscriptionStatus] {
        state.withLock { s in
            s.values.sorted { ($0.record.createdAt, $0.record.id) < ($1.record.createdAt, $1.record.id) }.map(Self.status)
        }
    }

    public func subscription(id: String) throws -> WebhookSubscriptionStatus? {
        state.withLock { s in s[id].map(Self.status) }
    }

    private static func status(_ s: Subscription) -> WebhookSubscriptionStatus {
        var record = s.record
        record.patients.sort(); record.careTeams.sort()
        return WebhookSubscriptionStatus(subscription: record, nextSequence: s.nextSequence, lastDeliveredSequence: s.lastDelivered,
                                         pendingDeliveries: s.deliveries.values.filter { $0.state == .pending }.count,
                                         failingSince: s.failingSince, paused: s.paused, droppedDeliveries: s.dropped)
    }

    public func setPaused(_ paused: Bool, subscription id: String, now: Date) throws -> Bool {
        state.withLock { s in
            guard var sub = s[id] else { return false }
            sub.paused = paused
            if !paused {
                for (n, d) in sub.deliveries where d.state == .pending && d.nextAttemptAt > now { sub.deliveries[n]?.nextAttemptAt = now }
            }
            s[id] = sub
            return true
        }
    }

    public func deleteSubscription(id: String) throws -> Bool {
        sync.unsubscribe { state.withLock { s in s.removeValue(forKey: id) != nil } }
    }

    public func replay(subscription id: String, fromSequence: Int64, now: Date) throws -> Int? {
        try state.withLock { s in
            guard var sub = s[id] else { return nil }
            let oldest = sub.deliveries.keys.min()
            guard let oldest, fromSequence >= oldest, fromSequence < sub.nextSequence else {
                throw WebhookStoreError.sequenceNotKept(oldestKept: oldest, next: sub.nextSequence)
            }
            var count = 0
            for n in sub.deliveries.keys where n >= fromSequence {
                sub.deliveries[n] = Delivery(entry: sub.deliveries[n]!.entry, nextAttemptAt: now)
                count += 1
            }
            sub.coalesceFloor = sub.nextSequence - 1
            s[id] = sub
            return count
        }
    }

    public func fanOut(limit: Int, maxPending: Int, now: Date) throws -> Int {
        let teams = try access.careTeams()
        return sync.takeOutbox(limit: limit) { entries in
            state.withLock { s in
                var queues = Dictionary(uniqueKeysWithValues: s.map { id, sub in
                    let pending = sub.deliveries.filter { $0.value.state == .pending }
                    return (id, WebhookFanOutQueue(subscriptionID: id, nextSequence: sub.nextSequence, pending: pending.count,
                                                   head: pending.keys.min(), coalesceFloor: sub.coalesceFloor))
                })
                for entry in entries {
                    let member = Set(teams.filter { $0.patients.contains(entry.patient) }.map(\.name))
                    for id in s.keys.sorted() where entry.id > s[id]!.watermark
                        && s[id]!.record.matches(patient: entry.patient, teams: member, event: entry.event) {
                        if entry.event != WebhookSubscription.patientChanged {
                            s[id]!.deliveries[queues[id]!.placeUncoalesced()] = Delivery(entry: entry, nextAttemptAt: now)
                            s[id]!.nextSequence = queues[id]!.nextSequence
                            continue
                        }
                        let after = queues[id]!.updatableAfter
                        switch queues[id]!.place(patient: entry.patient, updatable: { patient in
                            s[id]!.deliveries.filter { $0.key > after && $0.value.state == .pending && $0.value.attempts == 0
                                && $0.value.entry.patient == patient && $0.value.entry.event == WebhookSubscription.patientChanged }.keys.max()
                        }) {
                        case .update(let n): s[id]!.deliveries[n]!.entry = entry
                        case .insert(let n): s[id]!.deliveries[n] = Delivery(entry: entry, nextAttemptAt: now)
                        }
                        s[id]!.nextSequence = queues[id]!.nextSequence
                    }
                }
                for id in s.keys {
                    let excess = queues[id]!.overflow(maxPending: maxPending)
                    let waiting = s[id]!.deliveries.filter { $0.value.state == .pending }.keys.sorted()
                    for n in waiting.dropFirst().prefix(excess) {
                        s[id]!.deliveries[n]!.state = .failed
                        s[id]!.deliveries[n]!.completedAt = now
                    }
                    s[id]!.dropped += excess
                }
                return entries.count
            }
        }
    }

    public func heads() throws -> [WebhookDelivery] {
        state.withLock { s in
            s.values.filter { !$0.paused }.compactMap { sub -> WebhookDelivery? in
                guard let (n, d) = sub.deliveries.filter({ $0.value.state == .pending }).min(by: { $0.key < $1.key }) else { return nil }
                var head = WebhookDelivery(subscriptionID: sub.record.id, url: sub.record.url, secret: sub.record.secret, sequence: n,
                                           patient: d.entry.patient, anchor: d.entry.anchor, eventTime: d.entry.time, attempts: d.attempts,
                                           firstAttemptAt: d.firstAttemptAt, nextAttemptAt: d.nextAttemptAt)
                head.event = d.entry.event; head.alert = d.entry.alert
                return head
            }.sorted { ($0.nextAttemptAt, $0.subscriptionID) < ($1.nextAttemptAt, $1.subscriptionID) }
        }
    }

    public func record(_ attempts: [WebhookAttempt]) throws {
        state.withLock { s in
            for attempt in attempts { Self.record(attempt, in: &s) }
        }
    }

    /// Records one attempt in the state.
    private static func record(_ attempt: WebhookAttempt, in s: inout [String: Subscription]) {
        guard var sub = s[attempt.subscriptionID], var d = sub.deliveries[attempt.sequence], d.state == .pending else { return }
        d.attempts += 1
        d.firstAttemptAt = d.firstAttemptAt ?? attempt.time
        switch attempt.outcome {
        case .delivered:
            d.state = .delivered; d.completedAt = attempt.time
            sub.lastDelivered = attempt.sequence; sub.failingSince = nil
        case .retry(let at):
            d.nextAttemptAt = at
            sub.failingSince = sub.failingSince ?? attempt.time
        case .failed:
            d.state = .failed; d.completedAt = attempt.time
            sub.failingSince = sub.failingSince ?? attempt.time
        }
        sub.deliveries[attempt.sequence] = d
        s[attempt.subscriptionID] = sub
    }

    public func purgeDeliveries(completedBefore before: Date) throws -> Int {
        state.withLock { s in
            var purged = 0
            for id in s.keys {
                for (n, d) in s[id]!.deliveries where d.state != .pending && d.completedAt! < before {
                    s[id]!.deliveries[n] = nil
                    purged += 1
                }
            }
            return purged
        }
    }

    /// Removes every delivery of the patient's changes, whatever its state; how many.
    func erase(patient: String) -> Int {
        state.withLock { s in
            var removed = 0
            for id in s.keys {
                for (n, d) in s[id]!.deliveries where d.entry.patient == patient {
                    s[id]!.deliveries[n] = nil
                    removed += 1
                }
            }
            return removed
        }
    }
}
