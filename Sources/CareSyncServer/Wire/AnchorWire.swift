import CareSyncHTTP
import CareSyncCore

/// The opaque anchor strings of responses and `anchor=` parameters (the format is Core's `Anchor.encoded`).
public enum AnchorWire {
    /// Encodes an anchor for a response.
    public static func encode(_ anchor: Anchor) -> String { anchor.encoded }

    /// Decodes a client's anchor; a malformed one is 400 `invalidAnchor`. Whether its store id is
    /// acceptable is the store's call (a restored backup still honours its old id up to the backup).
    public static func decode(_ text: String) throws(HTTPError) -> Anchor {
        guard let anchor = Anchor.decode(text) else { throw .invalidAnchor }
        return anchor
    }
}
