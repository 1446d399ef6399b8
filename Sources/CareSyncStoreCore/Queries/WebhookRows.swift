import CareSyncCore
import Foundation

/// The statements that read webhook subscriptions back, in one dialect.
public struct WebhookRowSQL: Sendable {
    /// Every subscription with its delivery state, oldest first (columns as `WebhookRows.statuses` reads them).
    public var statuses: String
    /// The same for one subscription: id.
    public var status: String
    /// Run before `fanOutTargets` to lock the subscriptions until the fan-out commits (PostgreSQL); nil for none.
    public var lockTargets: String?
    /// Every subscription as fan-out needs it (columns as `WebhookRows.fanOutTargets` reads them).
    public var fanOutTargets: String
    /// (subscription id, patient id) of every patient filter, by patient.
    public var patients: String
    /// (subscription id, care team) of every care-team filter, by team.
    public var careTeams: String
    /// The oldest pending delivery of every unpaused subscription (columns as `WebhookRows.heads` reads them).
    public var heads: String
    /// The same for one subscription: id.
    public var head: String

    /// The statements.
    public init(statuses: String, status: String, lockTargets: String?, fanOutTargets: String, patients: String, careTeams: String,
                heads: String, head: String) {
        self.statuses = statuses; self.status = status; self.lockTargets = lockTargets
        self.fanOutTargets = fanOutTargets; self.patients = patients; self.careTeams = careTeams
        self.heads = heads; self.head = head
    }
}

extension WebhookRowSQL {
    /// The statements in SQL both dialects take (`p(n)`: the nth parameter's marker), the dialect's lock, if any,
    /// and how to name a subscription's pending deliveries as `d` (SQLite: through their partial index, which its
    /// planner, without statistics, passes over for the primary key and so reads every delivery ever kept).
    public static func portable(parameter p: (Int) -> String, lockTargets: String?,
                                pendingDeliveries: String = "webhook_deliveries d") -> WebhookRowSQL {
        let statuses = """
            SELECT s.id, s.url, s.secret, s.events, s.created_at_ms, s.paused, s.next_sequence, s.last_delivered_sequence,
                   s.failing_since_ms, (SELECT count(*) FROM \(pendingDeliveries) WHERE d.subscription_id = s.id AND d.state = 'pending'),
                   s.dropped_deliveries
            FROM webhook_subscriptions s
            """
        let heads = """
            SELECT s.id, s.url, s.secret, h.sequence, h.patient, h.anchor, h.event_time_ms, h.attempts,
                   h.first_attempt_at_ms, h.next_attempt_at_ms, h.event, h.alert_id, h.alert_rule, h.alert_care_team
            FROM webhook_subscriptions s JOIN webhook_deliveries h ON h.subscription_id = s.id
            WHERE NOT s.paused
              AND h.sequence = (SELECT min(d.sequence) FROM \(pendingDeliveries) WHERE d.subscription_id = s.id AND d.state = 'pending')
            """
        return WebhookRowSQL(
            statuses: statuses + " ORDER BY s.created_at_ms, s.id",
            status: statuses + " WHERE s.id = \(p(1)) ORDER BY s.created_at_ms, s.id",
            lockTargets: lockTargets,
            fanOutTargets: """
                SELECT s.id, s.url, s.secret, s.events, s.created_at_ms, s.outbox_watermark, s.next_sequence, s.coalesce_floor,
                       (SELECT count(*) FROM \(pendingDeliveries) WHERE d.subscription_id = s.id AND d.state = 'pending'),
                       (SELECT min(d.sequence) FROM \(pendingDeliveries) WHERE d.subscription_id = s.id AND d.state = 'pending')
                FROM webhook_subscriptions s ORDER BY s.id
                """,
            patients: "SELECT subscription_id, patient_id FROM webhook_subscription_patients ORDER BY patient_id",
            careTeams: "SELECT subscription_id, care_team FROM webhook_subscription_care_teams ORDER BY care_team",
            heads: heads + " ORDER BY h.next_attempt_at_ms, s.id",
            head: heads + " AND s.id = \(p(1))")
    }
}

/// Reading subscriptions back from their rows, over either backend; only the SQL text is the dialect's.
public struct WebhookRows<DB: QueryConnection>: Sendable {
    /// A subscription as fan-out needs it: the filter, its outbox watermark and its queue.
    public struct Target {
        /// The subscription, filters included.
        public let subscription: WebhookSubscription
        /// The outbox id at its creation: older rows are not its.
        public let watermark: Int64
        /// Its delivery queue.
        public let queue: WebhookFanOutQueue
    }

    /// The dialect's statements.
    public let sql: WebhookRowSQL

    /// Rows read with `sql`.
    public init(sql: WebhookRowSQL) { self.sql = sql }

    /// Every subscription (or the one with `id`) with its delivery state, oldest first.
    public func statuses(_ db: DB, id: String?) throws -> [WebhookSubscriptionStatus] {
        let rows = try db.fetch(id == nil ? sql.statuses : sql.status, id.map { [.text($0)] } ?? []) { r in
            WebhookSubscriptionStatus(
                subscription: try Self.subscription(r), nextSequence: try r.integer(6), lastDeliveredSequence: try r.integer(7),
                pendingDeliveries: Int(try r.integer(9)), failingSince: try r.optionalInteger(8).map(SyncRules.date(milliseconds:)),
                paused: try r.flag(5), droppedDeliveries: Int(try r.integer(10)))
        }
        let filters = try self.filters(db)
        return rows.map { status in
            var status = status
            status.subscription.patients = filters.patients[status.subscription.id] ?? []
            status.subscription.careTeams = filters.teams[status.subscription.id] ?? []
            return status
        }
    }

    /// The oldest pending delivery of every unpaused subscription, or of `subscriptions` only (`WebhookStore.heads`),
    /// ordered by the next attempt's time, then the subscription.
    public func heads(_ db: DB, of subscriptions: Set<String>? = nil) throws -> [WebhookDelivery] {
        guard let subscriptions else { return try db.fetch(sql.heads, [], Self.head) }
        return try subscriptions.flatMap { try db.fetch(sql.head, [.text($0)], Self.head) }.sorted(by: WebhookDelivery.headOrder)
    }

    private static func head(_ r: DB.Row) throws -> WebhookDelivery {
        var head = WebhookDelivery(subscriptionID: try r.text(0), url: try r.text(1), secret: try r.text(2), sequence: try r.integer(3),
                                   patient: try r.text(4), anchor: try r.text(5), eventTime: SyncRules.date(milliseconds: try r.integer(6)),
                                   attempts: Int(try r.integer(7)), firstAttemptAt: try r.optionalInteger(8).map(SyncRules.date(milliseconds:)),
                                   nextAttemptAt: SyncRules.date(milliseconds: try r.integer(9)))
        head.event = try r.text(10)
        head.alert = try r.optionalText(11).map { WebhookAlert(id: $0, rule: try r.optionalText(12) ?? "", careTeam: try r.optionalText(13) ?? "") }
        return head
    }

    /// Every subscription as fan-out needs it (locked first where the dialect locks them).
    public func fanOutTargets(_ db: DB) throws -> [Target] {
        if let lock = sql.lockTargets { try db.run(lock, []) }
        let rows = try db.fetch(sql.fanOutTargets, []) { r in
            Target(subscription: try Self.subscription(r), watermark: try r.integer(5),
                   queue: WebhookFanOutQueue(subscriptionID: try r.text(0), nextSequence: try r.integer(6), pending: Int(try r.integer(8)),
                                             head: try r.optionalInteger(9), coalesceFloor: try r.integer(7)))
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
    private static func subscription(_ r: DB.Row) throws -> WebhookSubscription {
        WebhookSubscription(id: try r.text(0), url: try r.text(1), patients: [], careTeams: [],
                            events: try r.text(3).split(separator: ",").map(String.init), secret: try r.text(2),
                            createdAt: SyncRules.date(milliseconds: try r.integer(4)))
    }

    /// The patients and care teams of every subscription, sorted.
    private func filters(_ db: DB) throws -> (patients: [String: [String]], teams: [String: [String]]) {
        let patients = try db.fetch(sql.patients, []) { (try $0.text(0), try $0.text(1)) }
        let teams = try db.fetch(sql.careTeams, []) { (try $0.text(0), try $0.text(1)) }
        return (Dictionary(grouping: patients, by: \.0).mapValues { $0.map(\.1) },
                Dictionary(grouping: teams, by: \.0).mapValues { $0.map(\.1) })
    }
}
