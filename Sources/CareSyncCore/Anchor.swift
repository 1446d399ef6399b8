/// A position in one store's change log: everything with a sequence above `sequence` is new.
///
/// Clients see it only as an opaque string (`encoded`). It names the store it came from,
/// so an anchor from another database (or a restored backup) is refused, not misread.
public struct Anchor: Hashable, Sendable {
    /// The id of the store whose change log this points into.
    public var storeID: String
    /// The last change sequence the holder has seen; 0 is "from the beginning".
    public var sequence: Int64

    public init(storeID: String, sequence: Int64) {
        self.storeID = storeID; self.sequence = sequence
    }
}
