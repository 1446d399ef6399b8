import CareSyncStoreCore

/// The store core's shared queries in SQLite's dialect: `?` parameters, text ordered bytewise by default.
enum SQLiteDialect {
    /// `weekly_reports` and the samples of their keys.
    static let reports = ReportQueries<Connection>(
        sql: .portable(parameter: Connection.parameter, bytewise: "", sampleColumns: SampleRow.sampleColumns),
        decodeSample: { try SampleRow.decodeSample($0) })

    /// `idempotency_records`; an expired record of the same key is replaced.
    static let idempotency = IdempotencyRows<Connection>(sql: .portable(parameter: Connection.parameter, save: """
        INSERT OR REPLACE INTO idempotency_records
          (scope, key, request_hash, status, response, created_at_ms, expires_at_ms, patient) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """))

    /// Webhook subscriptions and their delivery state (one writer: nothing to lock).
    static let webhooks = WebhookRows<Connection>(sql: .portable(parameter: Connection.parameter, lockTargets: nil,
                                                                 pendingDeliveries: pendingDeliveries))
    /// A subscription's pending deliveries as `d`, read through their partial index (see `WebhookRowSQL.portable`).
    static let pendingDeliveries = "webhook_deliveries AS d INDEXED BY webhook_deliveries_pending"
}
