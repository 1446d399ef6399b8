import CareSyncCore
import Foundation

/// Webhook subscriptions and deliveries in the PostgreSQL database (`migrations/postgresql/0003_webhooks.sql`), fed
/// by the outbox `PostgresSyncStore` writes in each write transaction, with the SQLite store's rules. Every instance
/// runs a dispatcher; only the one holding the sync store's `LeasedJob.webhooks` lease (`PostgresJobLeases`) dispatches.
public final class PostgresWebhookStore: WebhookStore {
    let database: PostgresDatabase

    /// The webhook store of `store`'s database.
    public init(store: PostgresSyncStore) {
        database = store.database
    }

    public func createSubscription(_ s: WebhookSubscription) throws {
        try database.write { db in
            // Between writers: one that commits after this sees the subscription and records its outbox entries.
            _ = try db.query("SELECT seq FROM store_head FOR UPDATE")
            let inserted = try db.query("""
                INSERT INTO webhook_subscriptions (id, url, secret, events, created_at_ms, outbox_watermark)
                VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING
                """, [.text(s.id), .text(s.url), .text(s.secret), .text(s.events.joined(separator: ",")),
                      .int64(SyncRules.milliseconds(s.createdAt)), .int64(try PostgresOutbox.watermark(db))]).affected
            guard inserted == 1 else { throw WebhookStoreError.alreadyExists(s.id) }
            for patient in s.patients {
                try db.query("INSERT INTO webhook_subscription_patients (subscription_id, patient_id) VALUES ($1, $2)",
                             [.text(s.id), .text(patient)])
            }
            for team in s.careTeams {
                try db.query("INSERT INTO webhook_subscription_care_teams (subscription_id, care_team) VALUES ($1, $2)",
                             [.text(s.id), .text(team)])
            }
        }
    }

    public func subscriptions() throws -> [WebhookSubscriptionStatus] {
        try database.read { db in try PostgresDialect.webhooks.statuses(db, id: nil) }
    }

    public func subscription(id: String) throws -> WebhookSubscriptionStatus? {
        try database.read { db in try PostgresDialect.webhooks.statuses(db, id: id).first }
    }

    public func setPaused(_ paused: Bool, subscription id: String, now: Date) throws -> Bool {
        try database.write { db in
            guard try db.query("UPDATE webhook_subscriptions SET paused = $1 WHERE id = $2", [.bool(paused), .text(id)]).affected == 1 else {
                return false
            }
            if !paused {
                try db.query("""
                    UPDATE webhook_deliveries SET next_attempt_at_ms = $1
                    WHERE subscription_id = $2 AND state = 'pending' AND next_attempt_at_ms > $1
                    """, [.int64(SyncRules.milliseconds(now)), .text(id)])
            }
            return true
        }
    }

    public func deleteSubscription(id: String) throws -> Bool {
        try database.write { db in
            try db.query("DELETE FROM webhook_subscriptions WHERE id = $1", [.text(id)]).affected == 1
        }
    }

    public func replay(subscription id: String, fromSequence: Int64, now: Date) throws -> Int? {
        try database.write { db in
            guard let next = try db.query("SELECT next_sequence FROM webhook_subscriptions WHERE id = $1 FOR UPDATE", [.text(id)])
                .first({ try $0.int64(0) }) else { return nil }
            let oldest = try db.query("SELECT min(sequence) FROM webhook_deliveries WHERE subscription_id = $1", [.text(id)])
                .first { try $0.optionalInt64(0) } ?? nil
            guard let oldest, fromSequence >= oldest, fromSequence < next else {
                throw WebhookStoreError.sequenceNotKept(oldestKept: oldest, next: next)
            }
            let requeued = try db.query("""
                UPDATE webhook_deliveries SET state = 'pending', attempts = 0, first_attempt_at_ms = NULL, next_attempt_at_ms = $1,
                  last_status = NULL, last_error = NULL, completed_at_ms = NULL
                WHERE subscription_id = $2 AND sequence >= $3
                """, [.int64(SyncRules.milliseconds(now)), .text(id), .int64(fromSequence)]).affected
            // The receiver may have had any of them: a later change never updates one (WebhookFanOutQueue).
            try db.query("UPDATE webhook_subscriptions SET coalesce_floor = $1 WHERE id = $2", [.int64(next - 1), .text(id)])
            return requeued
        }
    }

    public func fanOut(limit: Int, maxPending: Int, now: Date) throws -> Int {
        guard try !database.read({ try PostgresOutbox.entries($0, after: 0, limit: 1) }).isEmpty else { return 0 }
        return try database.write { db in
            let entries = try PostgresOutbox.entries(db, after: 0, limit: limit, locking: true)
            guard let last = entries.last else { return 0 }
            let targets = try PostgresDialect.webhooks.fanOutTargets(db)
            var teams: [String: Set<String>] = [:]
            var queues = targets.map(\.queue)
            for entry in entries {
                if teams[entry.patient] == nil {
                    teams[entry.patient] = Set(try db.query("SELECT care_team FROM care_team_patients WHERE patient_id = $1",
                                                            [.text(entry.patient)]).map { try $0.string(0) })
                }
                for (index, target) in targets.enumerated() where entry.id > target.watermark
                    && target.subscription.matches(patient: entry.patient, teams: teams[entry.patient] ?? [], event: entry.event) {
                    let id = target.subscription.id, after = queues[index].updatableAfter
                    if entry.event != WebhookSubscription.patientChanged {
                        try db.query("""
                            INSERT INTO webhook_deliveries (subscription_id, sequence, patient, anchor, event_time_ms, state, next_attempt_at_ms,
                                                            event, alert_id, alert_rule, alert_care_team)
                            VALUES ($1, $2, $3, '', $4, 'pending', $5, $6, $7, $8, $9)
                            """, [.text(id), .int64(queues[index].placeUncoalesced()), .text(entry.patient),
                                  .int64(SyncRules.milliseconds(entry.time)), .int64(SyncRules.milliseconds(now)), .text(entry.event),
                                  .text(entry.alert?.id), .text(entry.alert?.rule), .text(entry.alert?.careTeam)])
                        continue
                    }
                    switch try queues[index].place(patient: entry.patient, updatable: { patient in
                        try db.query("""
                            SELECT max(sequence) FROM webhook_deliveries
                            WHERE subscription_id = $1 AND patient = $2 AND state = 'pending' AND attempts = 0 AND sequence > $3
                              AND event = 'patient.changed'
                            """, [.text(id), .text(patient), .int64(after)]).first { try $0.optionalInt64(0) } ?? nil
                    }) {
                    case .update(let sequence):
                        try db.query("UPDATE webhook_deliveries SET anchor = $1, event_time_ms = $2 WHERE subscription_id = $3 AND sequence = $4",
                                     [.text(entry.anchor), .int64(SyncRules.milliseconds(entry.time)), .text(id), .int64(sequence)])
                    case .insert(let sequence):
                        try db.query("""
                            INSERT INTO webhook_deliveries (subscription_id, sequence, patient, anchor, event_time_ms, state, next_attempt_at_ms)
                            VALUES ($1, $2, $3, $4, $5, 'pending', $6)
                            """, [.text(id), .int64(sequence), .text(entry.patient), .text(entry.anchor),
                                  .int64(SyncRules.milliseconds(entry.time)), .int64(SyncRules.milliseconds(now))])
                    }
                }
            }
            for (index, target) in targets.enumerated() {
                let id = target.subscription.id
                if queues[index].nextSequence != target.queue.nextSequence {
                    try db.query("UPDATE webhook_subscriptions SET next_sequence = $1 WHERE id = $2",
                                 [.int64(queues[index].nextSequence), .text(id)])
                }
                let excess = queues[index].overflow(maxPending: maxPending)
                guard excess > 0 else { continue }
                // The oldest waiting deliveries after the head: failed, as a given-up delivery, and kept for replay.
                try db.query("""
                    UPDATE webhook_deliveries SET state = 'failed', last_error = $1, completed_at_ms = $2
                    WHERE subscription_id = $3 AND sequence IN (SELECT sequence FROM webhook_deliveries
                                                                WHERE subscription_id = $3 AND state = 'pending'
                                                                ORDER BY sequence LIMIT $4 OFFSET 1)
                    """, [.text(WebhookFanOutQueue.droppedError(maxPending: maxPending)), .int64(SyncRules.milliseconds(now)),
                          .text(id), .int64(Int64(excess))])
                try db.query("UPDATE webhook_subscriptions SET dropped_deliveries = dropped_deliveries + $1 WHERE id = $2",
                             [.int64(Int64(excess)), .text(id)])
            }
            try db.query("DELETE FROM webhook_outbox WHERE id <= $1", [.int64(last.id)])
            return entries.count
        }
    }

    public func heads() throws -> [WebhookDelivery] {
        try database.read { db in try PostgresDialect.webhooks.heads(db) }
    }

    public func heads(of subscriptions: Set<String>) throws -> [WebhookDelivery] {
        try database.read { db in try PostgresDialect.webhooks.heads(db, of: subscriptions) }
    }

    public func record(_ attempts: [WebhookAttempt]) throws {
        try database.write { db in try PostgresDialect.webhooks.record(db, attempts) }
    }

    public func purgeDeliveries(completedBefore before: Date) throws -> Int {
        try database.write { db in
            try db.query("DELETE FROM webhook_deliveries WHERE state <> 'pending' AND completed_at_ms < $1",
                         [.int64(SyncRules.milliseconds(before))]).affected
        }
    }
}
