import Foundation

/// One subscription's queue while a fan-out transaction runs, the rules every store shares: a patient's change
/// updates that patient's waiting delivery when it has one that was never offered to the receiver (coalescing),
/// else takes the next sequence; past the cap the oldest waiting deliveries are dropped (docs/api.md "Webhooks").
///
/// A delivery may be updated only while no attempt can have sent it: above the queue's head when the fan-out began
/// (the head may be in flight) and above `coalesceFloor` (deliveries a replay requeued were sent before). Deliveries
/// behind the head are never attempted before it, so none of them was ever sent.
public struct WebhookFanOutQueue: Sendable {
    /// What a change becomes in the queue.
    public enum Placement: Hashable, Sendable {
        /// A waiting delivery of the same patient takes the change's anchor and time.
        case update(sequence: Int64)
        /// A new delivery with this sequence.
        case insert(sequence: Int64)
    }

    /// The subscription.
    public let subscriptionID: String
    /// The number the next new delivery takes.
    public private(set) var nextSequence: Int64
    /// Deliveries waiting, the ones this fan-out added included.
    public private(set) var pending: Int
    /// Deliveries up to this sequence are never updated: the head when the fan-out began, or a replay's floor.
    public let updatableAfter: Int64
    /// The updatable delivery of each patient seen so far (nil: none), as looked up or added in this fan-out.
    private var open: [String: Int64?] = [:]

    /// The queue of `subscriptionID` as the fan-out found it: its next sequence, how many wait, its lowest waiting
    /// sequence (nil: none) and its coalescing floor.
    public init(subscriptionID: String, nextSequence: Int64, pending: Int, head: Int64?, coalesceFloor: Int64) {
        self.subscriptionID = subscriptionID; self.nextSequence = nextSequence; self.pending = pending
        updatableAfter = max(head ?? 0, coalesceFloor)
    }

    /// Where `patient`'s change goes. `updatable` looks up the store: the highest waiting, never attempted delivery of
    /// that patient with a sequence above `updatableAfter`, or nil; it is asked once per patient and fan-out.
    public mutating func place(patient: String, updatable: (String) throws -> Int64?) rethrows -> Placement {
        let found: Int64?
        if let known = open[patient] { found = known } else { found = try updatable(patient) }
        if let sequence = found {
            open[patient] = sequence
            return .update(sequence: sequence)
        }
        let sequence = nextSequence
        nextSequence += 1
        pending += 1
        open[patient] = sequence
        return .insert(sequence: sequence)
    }

    /// The sequence of a new delivery for an event that never coalesces (an alert event): each is delivered on its own.
    public mutating func placeUncoalesced() -> Int64 {
        let sequence = nextSequence
        nextSequence += 1
        pending += 1
        return sequence
    }

    /// How many of the oldest waiting deliveries, the head excepted, to drop so that at most `maxPending` wait (the
    /// head always stays: it may be in flight). Call once, after the last `place`: it counts them as dropped.
    public mutating func overflow(maxPending: Int) -> Int {
        let excess = max(pending - max(maxPending, 1), 0)
        pending -= excess
        return excess
    }

    /// The error recorded on a dropped delivery.
    public static func droppedError(maxPending: Int) -> String {
        "dropped: more than \(maxPending) deliveries were waiting (webhooks.maxPendingDeliveries)"
    }
}
