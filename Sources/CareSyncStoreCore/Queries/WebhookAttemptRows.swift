import CareSyncCore

/// Recording webhook attempts, over either backend: the same statements, only the parameter markers are the dialect's.
extension WebhookRows {
    /// Records `attempts` inside the caller's transaction; an attempt on a delivery that is no longer pending
    /// (replayed, or its subscription deleted) changes nothing.
    public func record(_ db: DB, _ attempts: [WebhookAttempt]) throws {
        let p = DB.parameter
        let delivery = """
            UPDATE webhook_deliveries SET state = \(p(1)), attempts = attempts + 1, first_attempt_at_ms = coalesce(first_attempt_at_ms, \(p(2))),
              next_attempt_at_ms = coalesce(\(p(3)), next_attempt_at_ms), last_status = \(p(4)), last_error = \(p(5)),
              completed_at_ms = CASE WHEN \(p(6)) = 'pending' THEN NULL ELSE \(p(7)) END
            WHERE subscription_id = \(p(8)) AND sequence = \(p(9)) AND state = 'pending'
            """
        let delivered = "UPDATE webhook_subscriptions SET last_delivered_sequence = \(p(1)), failing_since_ms = NULL WHERE id = \(p(2))"
        let failing = "UPDATE webhook_subscriptions SET failing_since_ms = coalesce(failing_since_ms, \(p(1))) WHERE id = \(p(2))"
        for attempt in attempts {
            let t = SyncRules.milliseconds(attempt.time)
            let (state, next): (String, QueryValue) = switch attempt.outcome {
            case .delivered: ("delivered", .null)
            case .retry(let at): ("pending", .integer(SyncRules.milliseconds(at)))
            case .failed: ("failed", .null)
            }
            let status: QueryValue = attempt.status.map { .integer(Int64($0)) } ?? .null
            let error: QueryValue = attempt.error.map { .text($0) } ?? .null
            guard try db.runCounting(delivery, [.text(state), .integer(t), next, status, error, .text(state), .integer(t),
                                                .text(attempt.subscriptionID), .integer(attempt.sequence)]) == 1 else { continue }
            if attempt.outcome == .delivered {
                try db.run(delivered, [.integer(attempt.sequence), .text(attempt.subscriptionID)])
            } else {
                try db.run(failing, [.integer(t), .text(attempt.subscriptionID)])
            }
        }
    }
}
