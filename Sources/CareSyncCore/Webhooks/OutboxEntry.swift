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

    /// An entry.
    public init(id: Int64, patient: String, sequence: Int64, anchor: String, time: Date) {
        self.id = id; self.patient = patient; self.sequence = sequence; self.anchor = anchor; self.time = time
    }
}
