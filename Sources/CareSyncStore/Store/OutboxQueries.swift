import CareSyncCore
import Foundation

/// The webhook outbox (`migrations/0005_webhooks.sql`): written by every write transaction that changed a feed
/// while a subscription exists,
/// read and emptied by `SQLiteWebhookStore.fanOut`.
enum OutboxQueries {
    /// Records one entry per changed patient, at the transaction's head, inside the write transaction; nothing while
    /// no subscription exists (read in the same transaction, so a subscription created before this commit counts).
    static func record(_ db: Connection, patients: [String], head: Int64, storeID: String, now: Date) throws {
        guard !patients.isEmpty, try db.scalarInt64("SELECT EXISTS (SELECT 1 FROM webhook_subscriptions)") == 1 else { return }
        let anchor = Anchor(storeID: storeID, sequence: head, horizon: try StoreQueries.purgeHorizon(db)).encoded
        for patient in patients {
            try db.execute("INSERT INTO webhook_outbox (patient, seq, anchor, created_at_ms) VALUES (?, ?, ?, ?)",
                           [.text(patient), .integer(head), .text(anchor), .integer(SyncRules.milliseconds(now))])
        }
    }

    /// Entries after `id`, oldest first.
    static func entries(_ db: Connection, after id: Int64, limit: Int) throws -> [OutboxEntry] {
        try db.fetchAll("""
            SELECT id, patient, seq, anchor, created_at_ms, event, alert_id, alert_rule, alert_care_team FROM webhook_outbox
            WHERE id > ? ORDER BY id LIMIT ?
            """, [.integer(id), .integer(Int64(limit))]) { s in
            OutboxEntry(id: s.int64(0), patient: s.string(1), sequence: s.int64(2), anchor: s.string(3),
                        time: SyncRules.date(milliseconds: s.int64(4)), event: s.string(5),
                        alert: s.optionalString(6).map { WebhookAlert(id: $0, rule: s.optionalString(7) ?? "", careTeam: s.optionalString(8) ?? "") })
        }
    }

    /// The highest id ever taken (0 for none): a new subscription receives only entries above it.
    static func watermark(_ db: Connection) throws -> Int64 {
        try db.scalarInt64("SELECT seq FROM sqlite_sequence WHERE name = 'webhook_outbox'") ?? 0
    }
}
