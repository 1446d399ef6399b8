import CareSyncHTTP
import Foundation
import HTTPTypes

/// Who sent a request and how, as far as it can be believed: the socket's peer, unless the peer is a trusted proxy;
/// then `X-Forwarded-For` (its rightmost address not itself a trusted proxy) and `X-Forwarded-Proto` (its last
/// value). From any other peer both headers are ignored (a client could write anything in them).
public struct ClientTransport: Sendable, Hashable {
    /// The client's address (no port): the key of per-address rate limits.
    public var address: String
    /// Whether the browser reached us over https (then cookies are `Secure` and `__Host-`).
    public var https: Bool
    /// Whether the socket's peer is a loopback address and no trusted proxy stands between.
    public var isLoopback: Bool

    /// The transport of a request from `peer` (`host:port`) with `headers`, believing only `trusted` proxies.
    public init(peer: String?, headers: HTTPFields, trusted: [AddressRange]) {
        let peerHost = peer.map(PeerAddress.host(of:)) ?? "unknown"
        func isTrusted(_ address: String) -> Bool { trusted.contains { $0.contains(address) } }
        guard isTrusted(peerHost) else {
            self.init(address: peerHost, https: false, isLoopback: AddressRange.isLoopback(peerHost))
            return
        }
        let forwardedFor = Self.list(headers, "X-Forwarded-For")
        let client = forwardedFor.reversed().first { !isTrusted($0) } ?? forwardedFor.first ?? peerHost
        let proto = Self.list(headers, "X-Forwarded-Proto").last?.lowercased()
        self.init(address: AddressRange.parse(client) != nil ? client : peerHost, https: proto == "https", isLoopback: false)
    }

    /// A transport from its parts.
    public init(address: String, https: Bool, isLoopback: Bool) {
        self.address = address; self.https = https; self.isLoopback = isLoopback
    }

    /// Every comma-separated value of every `name` field, trimmed, in order.
    static func list(_ headers: HTTPFields, _ name: String) -> [String] {
        guard let field = HTTPField.Name(name) else { return [] }
        return headers[values: field].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }
}
