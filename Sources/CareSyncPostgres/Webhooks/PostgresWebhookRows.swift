import CareSyncCore
import Foundation

/// Reading subscriptions back from their rows.
enum PostgresWebhookRows {
    /// A subscription as fan-out needs it: the filter, its outbox watermark and its queue.
    struct Target {
        let subscription: WebhookSubscription
        let watermark: Int64
        let queue: WebhookFanOutQueue
    }

    /// Every subscription (or the one with `id`) with its delivery state, oldest first.
    static func statuses(_ db: PostgresConnection, id: String?) throws -> [WebhookSubscriptionStatus] {
        let filter = id == nil ? "" : "WHERE s.id = $1"
        let rows = try db.query("""
            SELECT s.id, s.url, s.secret, s.events, s.created_at_ms, s.paused, s.next_sequence, s.last_delivered_sequence,
                   s.failing_since_ms, (SELECT count(*) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.state = 'pending'),
                   s.dropped_deliveries
            FROM webhook_subscriptions s \(filter) ORDER BY s.created_at_ms, s.id
            """, id.map { [.text($0)] } ?? []).map { r in
            WebhookSubscriptionStatus(
                subscription: try subscription(r), nextSequence: try r.int64(6), lastDeliveredSequence: try r.int64(7),
                pendingDeliveries: Int(try r.int64(9)), failingSince: try r.optionalInt64(8).map(SyncRules.date(milliseconds:)),
                paused: try r.bool(5), droppedDeliveries: Int(try r.int64(10)))
        }
        let filters = try self.filters(db)
        return rows.map { status in
            var status = status
            status.subscription.patients = filters.patients[status.subscription.id] ?? []
            status.subscription.careTeams = filters.teams[status.subscription.id] ?? []
            return status
        }
    }

    /// Every subscription as fan-out needs it, locked until the fan-out commits (their next sequences change). The
    /// queues are read after the locks are held, so an attempt's outcome committed meanwhile is seen (`record` takes
    /// the subscription's row too): the head they name is the one the dispatcher may be attempting.
    static func fanOutTargets(_ db: PostgresConnection) throws -> [Target] {
        _ = try db.query("SELECT id FROM webhook_subscriptions ORDER BY id FOR UPDATE")
        let rows = try db.query("""
            SELECT s.id, s.url, s.secret, s.events, s.created_at_ms, s.outbox_watermark, s.next_sequence, s.coalesce_floor,
                   (SELECT count(*) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.state = 'pending'),
                   (SELECT min(d.sequence) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.state = 'pending')
            FROM webhook_subscriptions s ORDER BY s.id
            """).map { r in
            Target(subscription: try subscription(r), watermark: try r.int64(5),
                   queue: WebhookFanOutQueue(subscriptionID: try r.string(0), nextSequence: try r.int64(6), pending: Int(try r.int64(8)),
                                             head: try r.optionalInt64(9), coalesceFloor: try r.int64(7)))
        }
        guard !rows.isEmpty else { return [] }
        let filters = try self.filters(db)
        return rows.map { target in
            var s = target.subscription
            s.patients = filters.patients[s.id] ?? []
            s.careTeams = filters.teams[s.id] ?? []
            return Target(subscription: s, watermark: target.watermark, queue: target.queue)
        }
    }

    /// A subscription from columns id, url, secret, events, created_at_ms (its filter lists empty).
    private static func subscription(_ r: PostgresRow) throws -> WebhookSubscription {
        WebhookSubscription(id: try r.string(0), url: try r.string(1), patients: [], careTeams: [],
                            events: try r.string(3).split(separator: ",").map(String.init), secret: try r.string(2),
                            createdAt: SyncRules.date(milliseconds: try r.int64(4)))
    }

    /// The patients and care teams of every subscription, sorted.
    private static func filters(_ db: PostgresConnection) throws -> (patients: [String: [String]], teams: [String: [String]]) {
        let patients = try db.query("SELECT subscription_id, patient_id FROM webhook_subscription_patients ORDER BY patient_id")
            .map { (try $0.string(0), try $0.string(1)) }
        let teams = try db.query("SELECT subscription_id, care_team FROM webhook_subscription_care_teams ORDER BY care_team")
            .map { (try $0.string(0), try $0.string(1)) }
        return (Dictionary(grouping: patients, by: \.0).mapValues { $0.map(\.1) },
                Dictionary(grouping: teams, by: \.0).mapValues { $0.map(\.1) })
    }
}
