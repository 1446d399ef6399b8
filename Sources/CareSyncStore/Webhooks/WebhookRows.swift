import CareSyncCore
import Foundation

/// Reading subscriptions back from their rows.
enum WebhookRows {
    /// A subscription as fan-out needs it: the filter, its outbox watermark and its queue.
    struct Target {
        let subscription: WebhookSubscription
        let watermark: Int64
        let queue: WebhookFanOutQueue
    }

    /// Every subscription (or the one with `id`) with its delivery state, oldest first.
    static func statuses(_ db: Connection, id: String?) throws -> [WebhookSubscriptionStatus] {
        let filter = id == nil ? "" : "WHERE s.id = ?"
        let rows = try db.fetchAll("""
            SELECT s.id, s.url, s.secret, s.events, s.created_at_ms, s.paused, s.next_sequence, s.last_delivered_sequence,
                   s.failing_since_ms, (SELECT count(*) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.state = 'pending'),
                   s.dropped_deliveries
            FROM webhook_subscriptions s \(filter) ORDER BY s.created_at_ms, s.id
            """, id.map { [.text($0)] } ?? []) { r in
            WebhookSubscriptionStatus(
                subscription: subscription(r), nextSequence: r.int64(6), lastDeliveredSequence: r.int64(7),
                pendingDeliveries: Int(r.int64(9)), failingSince: r.optionalInt64(8).map(SyncRules.date(milliseconds:)),
                paused: r.int64(5) != 0, droppedDeliveries: Int(r.int64(10)))
        }
        let filters = try self.filters(db)
        return rows.map { status in
            var status = status
            status.subscription.patients = filters.patients[status.subscription.id] ?? []
            status.subscription.careTeams = filters.teams[status.subscription.id] ?? []
            return status
        }
    }

    /// Every subscription as fan-out needs it.
    static func fanOutTargets(_ db: Connection) throws -> [Target] {
        let rows = try db.fetchAll("""
            SELECT s.id, s.url, s.secret, s.events, s.created_at_ms, s.outbox_watermark, s.next_sequence, s.coalesce_floor,
                   (SELECT count(*) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.state = 'pending'),
                   (SELECT min(d.sequence) FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.state = 'pending')
            FROM webhook_subscriptions s ORDER BY s.id
            """) { r in
            Target(subscription: subscription(r), watermark: r.int64(5),
                   queue: WebhookFanOutQueue(subscriptionID: r.string(0), nextSequence: r.int64(6), pending: Int(r.int64(8)),
                                             head: r.optionalInt64(9), coalesceFloor: r.int64(7)))
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
    private static func subscription(_ r: Statement) -> WebhookSubscription {
        WebhookSubscription(id: r.string(0), url: r.string(1), patients: [], careTeams: [],
                            events: r.string(3).split(separator: ",").map(String.init), secret: r.string(2),
                            createdAt: SyncRules.date(milliseconds: r.int64(4)))
    }

    /// The patients and care teams of every subscription, sorted.
    private static func filters(_ db: Connection) throws -> (patients: [String: [String]], teams: [String: [String]]) {
        let patients = try db.fetchAll("SELECT subscription_id, patient_id FROM webhook_subscription_patients ORDER BY patient_id") {
            ($0.string(0), $0.string(1))
        }
        let teams = try db.fetchAll("SELECT subscription_id, care_team FROM webhook_subscription_care_teams ORDER BY care_team") {
            ($0.string(0), $0.string(1))
        }
        return (Dictionary(grouping: patients, by: \.0).mapValues { $0.map(\.1) },
                Dictionary(grouping: teams, by: \.0).mapValues { $0.map(\.1) })
    }
}
