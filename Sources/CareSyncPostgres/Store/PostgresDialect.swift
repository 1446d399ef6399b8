import CareSyncStoreCore

/// The store core's shared queries in PostgreSQL's dialect: `$n` parameters, `COLLATE "C"` where order is bytewise.
enum PostgresDialect {
    /// `weekly_reports` and the samples of their keys.
    static let reports = ReportQueries<PostgresConnection>(
        sql: .portable(parameter: PostgresConnection.parameter, bytewise: " COLLATE \"C\"", sampleColumns: PostgresSampleRow.sampleColumns),
        decodeSample: { try PostgresSampleRow.decodeSample($0) })

    /// `idempotency_records`; an expired record of the same key is overwritten.
    static let idempotency = IdempotencyRows<PostgresConnection>(sql: .portable(parameter: PostgresConnection.parameter, save: """
        INSERT INTO idempotency_records (scope, key, request_hash, status, response, created_at_ms, expires_at_ms, patient)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
        ON CONFLICT (scope, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
          response = excluded.response, created_at_ms = excluded.created_at_ms, expires_at_ms = excluded.expires_at_ms,
          patient = excluded.patient
        """))

    /// Webhook subscriptions and their delivery state. Fan-out locks every subscription until it commits (their next
    /// sequences change) and reads the queues after, so an attempt's outcome committed meanwhile is seen (`record`
    /// takes the subscription's row too): the head they name is the one the dispatcher may be attempting.
    static let webhooks = WebhookRows<PostgresConnection>(sql: .portable(
        parameter: PostgresConnection.parameter, lockTargets: "SELECT id FROM webhook_subscriptions ORDER BY id FOR UPDATE"))
}
