import CareSyncHTTP
import Foundation
import HTTPTypes

/// What a request presents to prove who sent it, read from its head: a bearer token, or a session cookie with, for
/// an unsafe method, its `Origin` and `X-CSRF-Token`; and how it reached us (`ClientTransport`).
public struct Credentials: Sendable {
    /// The `Authorization` header.
    public var authorization: String?
    /// The session cookie's secret, under the name this transport uses.
    public var sessionSecret: String?
    /// Who sent it, and whether over https.
    public var transport: ClientTransport
    /// The method: unsafe ones with a cookie need the CSRF defence.
    public var method: HTTPRequest.Method
    /// The `Origin` header.
    public var origin: String?
    /// The `X-CSRF-Token` header.
    public var csrfToken: String?
    /// The `Host` header (the request's own origin when no public origin is configured).
    public var host: String?

    /// The credentials in a request head, believing forwarded headers only from `trusted` proxies.
    public init(head: RequestHead, trusted: [AddressRange]) {
        transport = ClientTransport(peer: head.remoteAddress, headers: head.headers, trusted: trusted)
        authorization = head.headers[.authorization]
        let cookies = head.headers[values: .cookie]
        sessionSecret = cookies.isEmpty ? nil : SessionCookie.secret(in: cookies.joined(separator: "; "), https: transport.https)
        method = head.method
        origin = head.headers[Self.originField]
        csrfToken = head.headers[Self.csrfTokenField]
        host = head.headers[Self.hostField]
    }

    /// The field names read from every request, made once.
    private static let originField = HTTPField.Name("Origin")!
    private static let csrfTokenField = HTTPField.Name("X-CSRF-Token")!
    private static let hostField = HTTPField.Name("Host")!

    /// Only a bearer header (the command line's and older callers' way in).
    public init(authorization: String?, peer: String?) {
        self.authorization = authorization
        transport = ClientTransport(address: peer.map(PeerAddress.host(of:)) ?? "unknown", https: false, isLoopback: false)
        method = .get
    }

    /// Whether a bearer token is presented (it wins over a cookie: API clients are unaffected by sessions).
    public var hasBearer: Bool { !(authorization?.trimmingSpaces().isEmpty ?? true) }

    /// Whether the method changes something (everything but GET, HEAD and OPTIONS).
    public var isUnsafe: Bool { method != .get && method != .head && method != .options }

    /// The origin this request was addressed to, from its `Host` and transport (used when none is configured).
    public var ownOrigin: String? { host.map { (transport.https ? "https://" : "http://") + $0.lowercased() } }

    /// 403 unless `origin` is one of `allowed` (or, with none configured, this request's own origin).
    public func requireAllowedOrigin(_ allowed: [String]) throws {
        let accepted = allowed.isEmpty ? [ownOrigin].compactMap { $0 } : allowed
        guard let origin = origin?.lowercased(), accepted.contains(origin) else {
            throw HTTPError.forbidden("This request comes from another origin (or names none); nothing was changed.")
        }
    }

    /// The cross-site request forgery defence of a cookie-authenticated unsafe request (403, nothing changed): its
    /// `Origin` must be an allowed one and its `X-CSRF-Token` the session's (`GET /v1/session` tells it).
    public func requireSameSite(_ allowed: [String]) throws {
        guard isUnsafe, !hasBearer, let secret = sessionSecret else { return }
        try requireAllowedOrigin(allowed)
        guard SessionSecret.isCSRFToken(csrfToken, forSessionSecret: secret) else {
            throw HTTPError.forbidden("The X-CSRF-Token header is missing or is not this session's; nothing was changed.")
        }
    }

    /// The origin part (`scheme://host[:port]`, lowercased) of a configured public origin, which may carry a path.
    public static func origin(of publicOrigin: String) -> String? {
        guard let url = URL(string: publicOrigin), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }
}
