import Foundation

/// Why a webhook-store call was refused.
public enum WebhookStoreError: Error, Hashable, Sendable {
    /// A subscription with that id exists already.
    case alreadyExists(String)
    /// A replay from a sequence the subscription never had, or whose delivery is no longer kept.
    case sequenceNotKept(oldestKept: Int64?, next: Int64)
}

/// Webhook subscriptions and their deliveries, in the database of the sync store whose outbox feeds them.
/// Methods are blocking and thread-safe.
///
/// The dispatcher moves outbox entries into per-subscription deliveries (`fanOut`), attempts the head of each
/// unpaused subscription's queue (`heads`) and records each attempt (`record`). Every step is one transaction, so
/// a crash between steps repeats an attempt at worst (at-least-once), never loses or reorders one. One dispatcher
/// runs per database: the instance holding the sync store's `LeasedJob.webhooks` lease.
public protocol WebhookStore: Sendable {
    /// Stores a new subscription; from now on the changes it matches queue for it.
    func createSubscription(_ subscription: WebhookSubscription) throws
    /// Every subscription with its delivery state, oldest first.
    func subscriptions() throws -> [WebhookSubscriptionStatus]
    /// One subscription with its delivery state, or nil.
    func subscription(id: String) throws -> WebhookSubscriptionStatus?
    /// Pauses (deliveries queue) or resumes (the head is due at `now`); false when there is no such subscription.
    func setPaused(_ paused: Bool, subscription id: String, now: Date) throws -> Bool
    /// Deletes a subscription and its deliveries; false when there was none.
    func deleteSubscription(id: String) throws -> Bool
    /// Queues the kept deliveries numbered `fromSequence` and later again, due at `now` (never updated by a later
    /// change: the receiver may have them); returns how many, or nil when there is no such subscription. `sequenceNotKept` for a sequence it never had or no longer keeps.
    func replay(subscription id: String, fromSequence: Int64, now: Date) throws -> Int?
    /// Moves up to `limit` outbox entries, oldest first, into deliveries of the subscriptions they match, due at
    /// `now`, in one transaction, by `WebhookFanOutQueue`'s rules: a change updates its patient's waiting delivery that
    /// was never offered, else takes the next sequence; then, beyond `maxPending` waiting, the oldest waiting
    /// deliveries (never the head) are marked failed and counted in `droppedDeliveries`. Returns the entries taken.
    func fanOut(limit: Int, maxPending: Int, now: Date) throws -> Int
    /// The oldest pending delivery of every unpaused subscription: nothing later goes out before it.
    func heads() throws -> [WebhookDelivery]
    /// `heads()` of `subscriptions` only, in the same order: the dispatcher's read after attempts ended, which
    /// costs a few index seeks instead of one per subscription.
    func heads(of subscriptions: Set<String>) throws -> [WebhookDelivery]
    /// Records attempts in one transaction, each on a pending delivery (ignored when it is no longer pending:
    /// replayed, or deleted). The dispatcher hands over every outcome that ended while the last commit ran.
    func record(_ attempts: [WebhookAttempt]) throws
    /// Forgets delivered and failed deliveries completed before `before` (they can no longer be replayed).
    func purgeDeliveries(completedBefore before: Date) throws -> Int
}

extension WebhookStore {
    /// Records one attempt (`record(_:)` of one).
    public func record(_ attempt: WebhookAttempt) throws { try record([attempt]) }

    /// `heads()` filtered (the reference model's; the database stores read only the subscriptions asked for).
    public func heads(of subscriptions: Set<String>) throws -> [WebhookDelivery] {
        try heads().filter { subscriptions.contains($0.subscriptionID) }
    }
}

extension WebhookDelivery {
    /// `heads()`'s order: the next attempt's time, then the subscription.
    public static func headOrder(_ a: WebhookDelivery, _ b: WebhookDelivery) -> Bool {
        (a.nextAttemptAt, a.subscriptionID) < (b.nextAttemptAt, b.subscriptionID)
    }
}
