import CareSyncCore
import Foundation

/// Webhook subscriptions and deliveries in the SQLite database (`migrations/0005_webhooks.sql`), fed by the outbox
/// `SQLiteSyncStore` writes in each write transaction. One process serves the file, so its dispatcher always runs.
public final class SQLiteWebhookStore: WebhookStore {
    let database: Database

    /// A store over an open, migrated database (the sync store's).
    public init(database: Database) { self.database = database }

    public func createSubscription(_ s: WebhookSubscription) throws {
        try database.write { db in
            guard try db.scalarInt64("SELECT 1 FROM webhook_subscriptions WHERE id = ?", [.text(s.id)]) == nil else {
                throw WebhookStoreError.alreadyExists(s.id)
            }
            try db.execute("""
                INSERT INTO webhook_subscriptions (id, url, secret, events, created_at_ms, outbox_watermark) VALUES (?, ?, ?, ?, ?, ?)
                """, [.text(s.id), .text(s.url), .text(s.secret), .text(s.events.joined(separator: ",")),
                      .integer(SyncRules.milliseconds(s.createdAt)), .integer(try OutboxQueries.watermark(db))])
            for patient in s.patients {
                try db.execute("INSERT INTO webhook_subscription_patients (subscription_id, patient_id) VALUES (?, ?)",
                               [.text(s.id), .text(patient)])
            }
            for team in s.careTeams {
                try db.execute("INSERT INTO webhook_subscription_care_teams (subscription_id, care_team) VALUES (?, ?)",
                               [.text(s.id), .text(team)])
            }
        }
    }

    public func subscriptions() throws -> [WebhookSubscriptionStatus] {
        try database.read { db in try SQLiteDialect.webhooks.statuses(db, id: nil) }
    }

    public func subscription(id: String) throws -> WebhookSubscriptionStatus? {
        try database.read { db in try SQLiteDialect.webhooks.statuses(db, id: id).first }
    }

    public func setPaused(_ paused: Bool, subscription id: String, now: Date) throws -> Bool {
        try database.write { db in
            try db.execute("UPDATE webhook_subscriptions SET paused = ? WHERE id = ?", [.integer(paused ? 1 : 0), .text(id)])
            guard db.changes == 1 else { return false }
            if !paused {
                let ms = SyncRules.milliseconds(now)
                try db.execute("""
                    UPDATE webhook_deliveries INDEXED BY webhook_deliveries_pending SET next_attempt_at_ms = ?
                    WHERE subscription_id = ? AND state = 'pending' AND next_attempt_at_ms > ?
                    """, [.integer(ms), .text(id), .integer(ms)])
            }
            return true
        }
    }

    public func deleteSubscription(id: String) throws -> Bool {
        try database.write { db in
            for table in ["webhook_deliveries", "webhook_subscription_patients", "webhook_subscription_care_teams"] {
                try db.execute("DELETE FROM \(table) WHERE subscription_id = ?", [.text(id)])
            }
            try db.execute("DELETE FROM webhook_subscriptions WHERE id = ?", [.text(id)])
            return db.changes == 1
        }
    }

    public func replay(subscription id: String, fromSequence: Int64, now: Date) throws -> Int? {
        try database.write { db in
            guard let next = try db.scalarInt64("SELECT next_sequence FROM webhook_subscriptions WHERE id = ?", [.text(id)]) else {
                return nil
            }
            let oldest = try db.scalarInt64("SELECT min(sequence) FROM webhook_deliveries WHERE subscription_id = ?", [.text(id)])
            guard let oldest, fromSequence >= oldest, fromSequence < next else {
                throw WebhookStoreError.sequenceNotKept(oldestKept: oldest, next: next)
            }
            try db.execute("""
                UPDATE webhook_deliveries SET state = 'pending', attempts = 0, first_attempt_at_ms = NULL, next_attempt_at_ms = ?,
                  last_status = NULL, last_error = NULL, completed_at_ms = NULL
                WHERE subscription_id = ? AND sequence >= ?
                """, [.integer(SyncRules.milliseconds(now)), .text(id), .integer(fromSequence)])
            let requeued = db.changes
            // The receiver may have had any of them: a later change never updates one (WebhookFanOutQueue).
            try db.execute("UPDATE webhook_subscriptions SET coalesce_floor = ? WHERE id = ?", [.integer(next - 1), .text(id)])
            return requeued
        }
    }

    public func fanOut(limit: Int, maxPending: Int, now: Date) throws -> Int {
        guard try !database.read({ try OutboxQueries.entries($0, after: 0, limit: 1) }).isEmpty else { return 0 }
        return try database.write { db in
            let entries = try OutboxQueries.entries(db, after: 0, limit: limit)
            guard let last = entries.last else { return 0 }
            let targets = try SQLiteDialect.webhooks.fanOutTargets(db)
            var teams: [String: Set<String>] = [:]
            var queues = targets.map(\.queue)
            for entry in entries {
                if teams[entry.patient] == nil {
                    teams[entry.patient] = Set(try db.fetchAll("SELECT care_team FROM care_team_patients WHERE patient_id = ?",
                                                               [.text(entry.patient)]) { $0.string(0) })
                }
                for (index, target) in targets.enumerated() where entry.id > target.watermark
                    && target.subscription.matches(patient: entry.patient, teams: teams[entry.patient] ?? [], event: entry.event) {
                    let id = target.subscription.id, after = queues[index].updatableAfter
                    if entry.event != WebhookSubscription.patientChanged {
                        try db.execute("""
                            INSERT INTO webhook_deliveries (subscription_id, sequence, patient, anchor, event_time_ms, state, next_attempt_at_ms,
                                                            event, alert_id, alert_rule, alert_care_team)
                            VALUES (?, ?, ?, '', ?, 'pending', ?, ?, ?, ?, ?)
                            """, [.text(id), .integer(queues[index].placeUncoalesced()), .text(entry.patient),
                                  .integer(SyncRules.milliseconds(entry.time)), .integer(SyncRules.milliseconds(now)), .text(entry.event),
                                  .text(entry.alert?.id), .text(entry.alert?.rule), .text(entry.alert?.careTeam)])
                        continue
                    }
                    switch try queues[index].place(patient: entry.patient, updatable: { patient in
                        try db.scalarInt64("""
                            SELECT max(sequence) FROM webhook_deliveries
                            WHERE subscription_id = ? AND patient = ? AND state = 'pending' AND attempts = 0 AND sequence > ?
                              AND event = 'patient.changed'
                            """, [.text(id), .text(patient), .integer(after)])
                    }) {
                    case .update(let sequence):
                        try db.execute("UPDATE webhook_deliveries SET anchor = ?, event_time_ms = ? WHERE subscription_id = ? AND sequence = ?",
                                       [.text(entry.anchor), .integer(SyncRules.milliseconds(entry.time)), .text(id), .integer(sequence)])
                    case .insert(let sequence):
                        try db.execute("""
                            INSERT INTO webhook_deliveries (subscription_id, sequence, patient, anchor, event_time_ms, state, next_attempt_at_ms)
                            VALUES (?, ?, ?, ?, ?, 'pending', ?)
                            """, [.text(id), .integer(sequence), .text(entry.patient), .text(entry.anchor),
                                  .integer(SyncRules.milliseconds(entry.time)), .integer(SyncRules.milliseconds(now))])
                    }
                }
            }
            for (index, target) in targets.enumerated() {
                let id = target.subscription.id
                if queues[index].nextSequence != target.queue.nextSequence {
                    try db.execute("UPDATE webhook_subscriptions SET next_sequence = ? WHERE id = ?",
                                   [.integer(queues[index].nextSequence), .text(id)])
                }
                let excess = queues[index].overflow(maxPending: maxPending)
                guard excess > 0 else { continue }
                // The oldest waiting deliveries after the head: failed, as a given-up delivery, and kept for replay.
                try db.execute("""
                    UPDATE webhook_deliveries SET state = 'failed', last_error = ?, completed_at_ms = ?
                    WHERE subscription_id = ? AND sequence IN (SELECT sequence FROM webhook_deliveries INDEXED BY webhook_deliveries_pending
                                                               WHERE subscription_id = ? AND state = 'pending'
                                                               ORDER BY sequence LIMIT ? OFFSET 1)
                    """, [.text(WebhookFanOutQueue.droppedError(maxPending: maxPending)), .integer(SyncRules.milliseconds(now)),
                          .text(id), .text(id), .integer(Int64(excess))])
                try db.execute("UPDATE webhook_subscriptions SET dropped_deliveries = dropped_deliveries + ? WHERE id = ?",
                               [.integer(Int64(excess)), .text(id)])
            }
            try db.execute("DELETE FROM webhook_outbox WHERE id <= ?", [.integer(last.id)])
            return entries.count
        }
    }

    public func heads() throws -> [WebhookDelivery] {
        try database.read { db in try SQLiteDialect.webhooks.heads(db) }
    }

    public func heads(of subscriptions: Set<String>) throws -> [WebhookDelivery] {
        try database.read { db in try SQLiteDialect.webhooks.heads(db, of: subscriptions) }
    }

    public func record(_ attempts: [WebhookAttempt]) throws {
        try database.write { db in try SQLiteDialect.webhooks.record(db, attempts) }
    }

    public func purgeDeliveries(completedBefore before: Date) throws -> Int {
        try database.write { db in
            try db.execute("DELETE FROM webhook_deliveries WHERE state <> 'pending' AND completed_at_ms < ?",
                           [.integer(SyncRules.milliseconds(before))])
            return db.changes
        }
    }
}
