/// A position in one store's change log: everything with a sequence above `sequence` is new.
///
/// Clients see it only as an opaque string (`encoded`). It names the store it came from,
/// so an anchor from another database (or a restored backup) is refused, not misread.
///
/// It also carries the store's purge horizon when it was handed out. A purge after that makes the
/// anchor expired only if it points below the new horizon; a reader that started after a purge holds
/// anchors stamped with that purge's horizon, so paging from scratch always completes:
///
///     horizon 0, reader at sequence 5; purge of tombstones through 9 -> horizon 9
///     Anchor(sequence: 5, horizon: 0)   -> anchorExpired (it may have missed a deletion at 6...9)
///     Anchor(sequence: 5, horizon: 9)   -> valid (handed out after the purge, to a reader starting over)
public struct Anchor: Hashable, Sendable {
    /// The id of the store whose change log this points into.
    public var storeID: String
    /// The last change sequence the holder has seen; 0 is "from the beginning".
    public var sequence: Int64
    /// The store's purge horizon when this anchor was handed out (0: nothing purged yet).
    public var horizon: Int64

    /// Creates an anchor; stores stamp `horizon` with their current purge horizon.
    public init(storeID: String, sequence: Int64, horizon: Int64 = 0) {
        self.storeID = storeID; self.sequence = sequence; self.horizon = horizon
    }

    /// The rule every store applies to a client's anchor, given its id, head sequence and purge horizon.
    ///
    /// Another store, a negative sequence or horizon, a sequence above the head, or a horizon above the
    /// store's → `invalidAnchor`. A purge since the anchor was handed out (`horizon < storeHorizon`) with the
    /// anchor below the new horizon → `anchorExpired`.
    public func validate(storeID: String, head: Int64, storeHorizon: Int64) throws {
        guard self.storeID == storeID, sequence >= 0, horizon >= 0, sequence <= head, horizon <= storeHorizon else {
            throw SyncError.invalidAnchor
        }
        if horizon < storeHorizon && sequence < storeHorizon { throw SyncError.anchorExpired }
    }
}
