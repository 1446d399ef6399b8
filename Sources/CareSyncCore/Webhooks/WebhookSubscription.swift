import Foundation

/// A clinic system's webhook subscription: where to POST which patients' changes, signed with its secret.
public struct WebhookSubscription: Hashable, Sendable {
    /// The public id (`wh_…`).
    public var id: String
    /// The `http`/`https` URL deliveries are POSTed to.
    public var url: String
    /// Patients whose changes it receives; with `careTeams` both empty, every patient's.
    public var patients: [String]
    /// Care teams whose patients' changes it receives (membership at the time of the change).
    public var careTeams: [String]
    /// The event types it receives (`patient.changed`, `alert.raised`, `alert.resolved`).
    public var events: [String]
    /// The signing secret, `whsec_<base64>`: kept to sign deliveries, shown once, never listed.
    public var secret: String
    /// When it was created.
    public var createdAt: Date

    /// A patient's feed changed.
    public static let patientChanged = "patient.changed"
    /// An alert was raised for a patient.
    public static let alertRaised = "alert.raised"
    /// An alert was resolved (by a therapist, or because its condition cleared).
    public static let alertResolved = "alert.resolved"
    /// Every event type a subscription may ask for.
    public static let eventTypes = [patientChanged, alertRaised, alertResolved]

    /// A subscription.
    public init(id: String, url: String, patients: [String], careTeams: [String], events: [String], secret: String, createdAt: Date) {
        self.id = id; self.url = url; self.patients = patients; self.careTeams = careTeams; self.events = events
        self.secret = secret; self.createdAt = createdAt
    }

    /// Whether an `event` of `patient`, who belongs to `teams`, is for this subscription.
    public func matches(patient: String, teams: Set<String>, event: String = patientChanged) -> Bool {
        guard events.contains(event) else { return false }
        if patients.isEmpty && careTeams.isEmpty { return true }
        return patients.contains(patient) || careTeams.contains(where: teams.contains)
    }
}

/// A subscription and where its deliveries stand.
public struct WebhookSubscriptionStatus: Hashable, Sendable {
    /// The subscription (its secret included: the API never shows it).
    public var subscription: WebhookSubscription
    /// The sequence the next event will take (1 for a subscription that has had none).
    public var nextSequence: Int64
    /// The highest sequence delivered (0: none yet).
    public var lastDeliveredSequence: Int64
    /// Deliveries waiting (queued, or waiting for a retry).
    public var pendingDeliveries: Int
    /// The first failed attempt since the last success, if the receiver is failing now.
    public var failingSince: Date?
    /// Whether deliveries are paused (they queue meanwhile).
    public var paused: Bool
    /// Deliveries dropped, since the subscription was created, because more than the cap were waiting.
    public var droppedDeliveries: Int

    /// A status.
    public init(subscription: WebhookSubscription, nextSequence: Int64, lastDeliveredSequence: Int64, pendingDeliveries: Int,
                failingSince: Date?, paused: Bool, droppedDeliveries: Int) {
        self.subscription = subscription; self.nextSequence = nextSequence; self.lastDeliveredSequence = lastDeliveredSequence
        self.pendingDeliveries = pendingDeliveries; self.failingSince = failingSince; self.paused = paused
        self.droppedDeliveries = droppedDeliveries
    }
}
