import CareSyncStoreCore

/// The store core's shared queries with SQLite's SQL text (`?` parameters, bytewise default collation).
enum SQLiteDialect {
    /// `weekly_reports` and the samples of their keys.
    static let reports = ReportQueries<Connection>(sql: ReportSQL(
        row: "SELECT \(ReportSQL.columns) FROM weekly_reports WHERE patient = ? AND source = ? AND sync_id = ?",
        sources: "SELECT source FROM weekly_reports WHERE patient = ? AND sync_id = ? ORDER BY source",
        firstPage: """
            SELECT \(ReportSQL.columns) FROM weekly_reports WHERE patient = ? AND week_start BETWEEN ? AND ?
            ORDER BY week_start, sync_id, source LIMIT ?
            """,
        pageAfter: """
            SELECT \(ReportSQL.columns) FROM weekly_reports WHERE patient = ? AND week_start BETWEEN ? AND ?
              AND (week_start, sync_id, source) > (?, ?, ?) ORDER BY week_start, sync_id, source LIMIT ?
            """,
        save: """
            INSERT INTO weekly_reports (patient, source, sync_id, sync_version, week_start, time_zone, keys, updated_at_ms)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (patient, source, sync_id) DO UPDATE SET sync_version = excluded.sync_version,
              week_start = excluded.week_start, time_zone = excluded.time_zone, keys = excluded.keys,
              updated_at_ms = excluded.updated_at_ms
            """,
        liveSample: """
            SELECT \(SampleRow.sampleColumns) FROM samples
            WHERE patient = ? AND source = ? AND sync_id = ? AND sync_id IS NOT NULL
            """,
        countBesides: "SELECT count(*) FROM weekly_reports WHERE patient = ? AND NOT (source = ? AND sync_id = ?)",
        delete: "DELETE FROM weekly_reports WHERE patient = ? AND source = ? AND sync_id = ?"
    ), decodeSample: { try SampleRow.decodeSample($0) })

    /// `idempotency_records`.
    static let idempotency = IdempotencyRows<Connection>(sql: IdempotencySQL(
        lookup: """
            SELECT request_hash, status, response, created_at_ms, expires_at_ms FROM idempotency_records
            WHERE scope = ? AND key = ? AND expires_at_ms > ?
            """,
        save: """
            INSERT OR REPLACE INTO idempotency_records
              (scope, key, request_hash, status, response, created_at_ms, expires_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)
            """))

    /// Webhook subscriptions and their delivery state (one writer: nothing to lock).
    static let webhooks = WebhookRows<Connection>(sql: WebhookRowSQL(
        statuses: """
            SELECT s.id, s.url, s.secret, s.events, s.created_at_ms, s.paused, s.next_sequence, s.last_delivered_sequence,
                   s.failing_since_ms, (SELECT count(*) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.state = 'pending'),
                   s.dropped_deliveries
            FROM webhook_subscriptions s ORDER BY s.created_at_ms, s.id
            """,
        status: """
            SELECT s.id, s.url, s.secret, s.events, s.created_at_ms, s.paused, s.next_sequence, s.last_delivered_sequence,
                   s.failing_since_ms, (SELECT count(*) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.state = 'pending'),
                   s.dropped_deliveries
            FROM webhook_subscriptions s WHERE s.id = ? ORDER BY s.created_at_ms, s.id
            """,
        lockTargets: nil,
        fanOutTargets: """
            SELECT s.id, s.url, s.secret, s.events, s.created_at_ms, s.outbox_watermark, s.next_sequence, s.coalesce_floor,
                   (SELECT count(*) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.state = 'pending'),
                   (SELECT min(d.sequence) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.state = 'pending')
            FROM webhook_subscriptions s ORDER BY s.id
            """,
        patients: "SELECT subscription_id, patient_id FROM webhook_subscription_patients ORDER BY patient_id",
        careTeams: "SELECT subscription_id, care_team FROM webhook_subscription_care_teams ORDER BY care_team"))
}
