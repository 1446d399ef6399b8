import Foundation

/// One event for one subscription: the head of its queue, which the dispatcher attempts next.
public struct WebhookDelivery: Hashable, Sendable {
    /// The subscription it belongs to.
    public var subscriptionID: String
    /// The subscription's URL.
    public var url: String
    /// The subscription's signing secret.
    public var secret: String
    /// Its number in the subscription: 1, 2, 3… with no gap, so a receiver sees one a given-up delivery left.
    public var sequence: Int64
    /// The patient whose feed changed.
    public var patient: String
    /// The feed's anchor after the change.
    public var anchor: String
    /// When the change committed.
    public var eventTime: Date
    /// Attempts made so far.
    public var attempts: Int
    /// The first attempt, if any: retries stop 72 h (`WebhookRetryPolicy.giveUpAfter`) after it.
    public var firstAttemptAt: Date?
    /// When the next attempt is due.
    public var nextAttemptAt: Date
    /// The event type (`patient.changed`, `alert.raised`, `alert.resolved`).
    public var event = WebhookSubscription.patientChanged
    /// The alert an alert event is about.
    public var alert: WebhookAlert?

    /// A delivery.
    public init(subscriptionID: String, url: String, secret: String, sequence: Int64, patient: String, anchor: String,
                eventTime: Date, attempts: Int, firstAttemptAt: Date?, nextAttemptAt: Date) {
        self.subscriptionID = subscriptionID; self.url = url; self.secret = secret; self.sequence = sequence
        self.patient = patient; self.anchor = anchor; self.eventTime = eventTime; self.attempts = attempts
        self.firstAttemptAt = firstAttemptAt; self.nextAttemptAt = nextAttemptAt
    }

    /// The `webhook-id`: the same for every attempt (and a replay) of this delivery.
    public var messageID: String { "msg_\(subscriptionID)_\(sequence)" }
}

/// What became of one attempt.
public struct WebhookAttempt: Hashable, Sendable {
    /// What the store records.
    public enum Outcome: Hashable, Sendable {
        /// A 2xx: delivered; the next delivery goes on.
        case delivered
        /// Anything else: tried again at the given time.
        case retry(at: Date)
        /// Given up (72 h after the first attempt): marked failed; the next delivery goes on.
        case failed
    }

    /// The subscription.
    public var subscriptionID: String
    /// The delivery's sequence.
    public var sequence: Int64
    /// When the attempt was made.
    public var time: Date
    /// The HTTP status answered, if any.
    public var status: Int?
    /// Why it failed (a status, a timeout, a connection error), for operators.
    public var error: String?
    /// The outcome.
    public var outcome: Outcome

    /// An attempt.
    public init(subscriptionID: String, sequence: Int64, time: Date, status: Int?, error: String?, outcome: Outcome) {
        self.subscriptionID = subscriptionID; self.sequence = sequence; self.time = time
        self.status = status; self.error = error; self.outcome = outcome
    }
}
