import CareSyncCore
import Foundation

/// The webhook outbox (`migrations/postgresql/0003_webhooks.sql`): written by every write transaction that changed a
/// feed while a subscription exists (holding the head row, so ids follow commit order), read and emptied by `PostgresWebhookStore.fanOut`.
enum PostgresOutbox {
    /// Records `entries` (a changed patient and the head anchor of the write that changed it, in commit order) inside
    /// the write transaction; nothing while no subscription exists. The writer holds the head row, and
    /// `createSubscription` takes it too, so this statement (after the lock, under READ COMMITTED) sees every
    /// subscription created before this commit.
    static func record(_ db: PostgresConnection, entries: [(patient: String, anchor: Anchor)], now: Date) throws {
        guard !entries.isEmpty else { return }
        // One statement, sent ahead: the check and every entry.
        try db.send("""
            INSERT INTO webhook_outbox (patient, seq, anchor, created_at_ms)
            SELECT e.patient, e.seq, e.anchor, $4 FROM unnest($1::text[], $2::bigint[], $3::text[]) WITH ORDINALITY AS e(patient, seq, anchor, n)
            WHERE EXISTS (SELECT 1 FROM webhook_subscriptions) ORDER BY e.n
            """, [.array(entries.map(\.patient)), .array(entries.map(\.anchor.sequence)), .array(entries.map(\.anchor.encoded)),
                  .int64(SyncRules.milliseconds(now))])
    }

    /// Entries after `id`, oldest first; `locking` takes their rows (fan-out), so a second dispatcher waits.
    static func entries(_ db: PostgresConnection, after id: Int64, limit: Int, locking: Bool = false) throws -> [OutboxEntry] {
        try db.query("""
            SELECT id, patient, seq, anchor, created_at_ms, event, alert_id, alert_rule, alert_care_team FROM webhook_outbox
            WHERE id > $1 ORDER BY id LIMIT $2\(locking ? " FOR UPDATE" : "")
            """, [.int64(id), .int64(Int64(limit))]).map { r in
            let alert = try r.optionalString(6).map { WebhookAlert(id: $0, rule: try r.optionalString(7) ?? "", careTeam: try r.optionalString(8) ?? "") }
            return OutboxEntry(id: try r.int64(0), patient: try r.string(1), sequence: try r.int64(2), anchor: try r.string(3),
                               time: SyncRules.date(milliseconds: try r.int64(4)), event: try r.string(5), alert: alert)
        }
    }

    /// The highest id committed (0 for none): a new subscription receives only entries above it. An entry not yet
    /// committed has a higher id than every committed one (writers take ids in turn, holding the head row).
    static func watermark(_ db: PostgresConnection) throws -> Int64 {
        try db.query("SELECT coalesce(max(id), 0) FROM webhook_outbox").first { try $0.int64(0) } ?? 0
    }
}
