import CareSyncCore

/// The opaque anchor strings of responses and `anchor=` parameters (the format is Core's `Anchor.encoded`).
public enum AnchorWire {
    /// Encodes an anchor for a response.
    public static func encode(_ anchor: Anchor) -> String { anchor.encoded }

    /// Decodes a client's anchor; a malformed one, or one from another store, is 400 `invalidAnchor`.
    public static func decode(_ text: String, storeID: String) throws(APIError) -> Anchor {
        guard let anchor = Anchor.decode(text), anchor.storeID == storeID else { throw .invalidAnchor }
        return anchor
    }
}
