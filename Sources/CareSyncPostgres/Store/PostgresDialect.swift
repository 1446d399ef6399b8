import CareSyncStoreCore

/// The store core's shared queries with PostgreSQL's SQL text (`$n` parameters, `COLLATE "C"` where order is bytewise).
enum PostgresDialect {
    /// `weekly_reports` and the samples of their keys (the columns sort bytewise: COLLATE "C" in the schema).
    static let reports = ReportQueries<PostgresConnection>(sql: ReportSQL(
        row: "SELECT \(ReportSQL.columns) FROM weekly_reports WHERE patient = $1 AND source = $2 AND sync_id = $3",
        sources: "SELECT source FROM weekly_reports WHERE patient = $1 AND sync_id = $2 ORDER BY source COLLATE \"C\"",
        firstPage: """
            SELECT \(ReportSQL.columns) FROM weekly_reports WHERE patient = $1 AND week_start BETWEEN $2 AND $3
            ORDER BY week_start, sync_id, source LIMIT $4
            """,
        pageAfter: """
            SELECT \(ReportSQL.columns) FROM weekly_reports WHERE patient = $1 AND week_start BETWEEN $2 AND $3
              AND (week_start, sync_id, source) > ($4, $5, $6) ORDER BY week_start, sync_id, source LIMIT $7
            """,
        save: """
            INSERT INTO weekly_reports (patient, source, sync_id, sync_version, week_start, time_zone, keys, updated_at_ms)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            ON CONFLICT (patient, source, sync_id) DO UPDATE SET sync_version = excluded.sync_version,
              week_start = excluded.week_start, time_zone = excluded.time_zone, keys = excluded.keys,
              updated_at_ms = excluded.updated_at_ms
            """,
        liveSample: """
            SELECT \(PostgresSampleRow.sampleColumns) FROM samples
            WHERE patient = $1 AND source = $2 AND sync_id = $3 AND sync_id IS NOT NULL
            """,
        countBesides: "SELECT count(*) FROM weekly_reports WHERE patient = $1 AND NOT (source = $2 AND sync_id = $3)",
        delete: "DELETE FROM weekly_reports WHERE patient = $1 AND source = $2 AND sync_id = $3"
    ), decodeSample: { try PostgresSampleRow.decodeSample($0) })

    /// `idempotency_records`.
    static let idempotency = IdempotencyRows<PostgresConnection>(sql: IdempotencySQL(
        lookup: """
            SELECT request_hash, status, response, created_at_ms, expires_at_ms FROM idempotency_records
            WHERE scope = $1 AND key = $2 AND expires_at_ms > $3
            """,
        save: """
            INSERT INTO idempotency_records (scope, key, request_hash, status, response, created_at_ms, expires_at_ms)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (scope, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
              response = excluded.response, created_at_ms = excluded.created_at_ms, expires_at_ms = excluded.expires_at_ms
            """))

    /// Webhook subscriptions and their delivery state. Fan-out locks every subscription until it commits (their next
    /// sequences change) and reads the queues after, so an attempt's outcome committed meanwhile is seen (`record`
    /// takes the subscription's row too): the head they name is the one the dispatcher may be attempting.
    static let webhooks = WebhookRows<PostgresConnection>(sql: WebhookRowSQL(
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
            FROM webhook_subscriptions s WHERE s.id = $1 ORDER BY s.created_at_ms, s.id
            """,
        lockTargets: "SELECT id FROM webhook_subscriptions ORDER BY id FOR UPDATE",
        fanOutTargets: """
            SELECT s.id, s.url, s.secret, s.events, s.created_at_ms, s.outbox_watermark, s.next_sequence, s.coalesce_floor,
                   (SELECT count(*) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.state = 'pending'),
                   (SELECT min(d.sequence) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.state = 'pending')
            FROM webhook_subscriptions s ORDER BY s.id
            """,
        patients: "SELECT subscription_id, patient_id FROM webhook_subscription_patients ORDER BY patient_id",
        careTeams: "SELECT subscription_id, care_team FROM webhook_subscription_care_teams ORDER BY care_team"))
}
