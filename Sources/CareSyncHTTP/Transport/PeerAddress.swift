/// A client's address as connection limits and rate limits key it: the host of a peer, without the port.
public enum PeerAddress {
    /// The host part of a peer: "127.0.0.1:5123" → "127.0.0.1", "[::1]:5123" → "[::1]"; anything else unchanged.
    public static func host(of peer: String) -> String {
        guard let colon = peer.lastIndex(of: ":"), peer.first == "[" || peer.firstIndex(of: ":") == colon else { return peer }
        return String(peer[..<colon])
    }
}
