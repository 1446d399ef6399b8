import Foundation

/// One commit that changed a patient's feed, recorded by the sync store inside that commit's transaction, so a
/// change is never committed without its webhook event (nor an event without its change).
public struct OutboxEntry: Hashable, Sendable {
    /// Its place in the outbox: ascending in commit order.
    public var id: Int64
    /// The patient whose feed changed.
    public var patient: String
    /// The head of the change log after the commit (the sequence of the feed's new anchor).
    public var sequence: Int64
    /// The feed's anchor at that head, encoded as clients get it.
    public var anchor: String
    /// When the change committed.
    public var time: Date
    /// The event type: `patient.changed`, or `alert.raised` / `alert.resolved` (then `sequence` is 0 and `anchor` empty).
    public var event: String
    /// The alert an alert event is about.
    public var alert: WebhookAlert?

    /// An entry.
    public init(id: Int64, patient: String, sequence: Int64, anchor: String, time: Date,
                event: String = WebhookSubscription.patientChanged, alert: WebhookAlert? = nil) {
        self.id = id; self.patient = patient; self.sequence = sequence; self.anchor = anchor; self.time = time
        self.event = event; self.alert = alert
    }
}

/// What an alert event tells about its alert: no figure, no sample value.
public struct WebhookAlert: Hashable, Sendable {
    /// The alert's id.
    public var id: String
    /// Its rule.
    public var rule: String
    /// The care team whose rules raised it.
    public var careTeam: String
    /// An alert's reference.
    public init(id: String, rule: String, careTeam: String) { self.id = id; self.rule = rule; self.careTeam = careTeam }
}
