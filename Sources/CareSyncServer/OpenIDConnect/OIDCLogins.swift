import CareSyncCore
import CareSyncHTTP
import Foundation

/// One sign-in begun at `GET /v1/oidc/start` and not yet returned: what the callback needs. It holds no secret: the
/// `state` is its key only as a hash, the PKCE verifier is derived from the browser's binding cookie
/// (`PKCE.verifier(binding:state:)`), and an invitation is kept as its hash.
struct PendingLogin: Sendable, Codable, Equatable {
    /// The `nonce` the ID token must carry.
    var nonce: String
    /// SHA-256 of the browser binding cookie's value: only the browser that started may finish.
    var bindingHash: [UInt8]
    /// The redirect URI sent (the token request repeats it).
    var redirectURI: String
    /// SHA-256 of an invitation's secret to accept through the provider, or nil.
    var invitationHash: [UInt8]?
    /// Where the web app continues after sign-in (a same-origin path).
    var returnPath: String
}

/// Sign-ins in progress, in the store every instance shares (the callback may reach another instance than the start):
/// each is taken once (a replayed callback finds nothing), lives `lifetime` seconds, and at most `capacity` exist at
/// once (then `start` answers 503 until some end).
struct OIDCLogins: Sendable {
    /// Where they are kept.
    let store: any PendingCeremonyStore
    /// How long a sign-in may take at the provider.
    var lifetime: TimeInterval = 600
    /// The most sign-ins in progress.
    var capacity = 10_000

    /// Stores a new sign-in under `state`; 503 when `capacity` are in progress (expired ones are dropped first).
    func insert(_ login: PendingLogin, state: String, now: Date) throws {
        guard try store.insertCeremony(login, kind: .openIDConnect, handle: Array(state.utf8),
                                       expiresAt: now.addingTimeInterval(lifetime), capacity: capacity, at: now) else {
            throw HTTPError.unavailable("Too many sign-ins are in progress; retry in a minute.")
        }
    }

    /// Removes and returns the sign-in `state` names when it has not expired; nil otherwise (never seen, taken, expired).
    func take(state: String, now: Date) throws -> PendingLogin? {
        let taken = try store.takeCeremony(PendingLogin.self, kind: .openIDConnect, handle: Array(state.utf8), at: now)
        guard case .live(let login) = taken else { return nil }
        return login
    }
}

/// The cookie binding a sign-in to the browser that started it: `__Host-caresync_oidc` over https, `caresync_oidc` on
/// loopback http; `HttpOnly`, `SameSite=Lax` (the provider's redirect back is a top-level GET, which Lax lets through),
/// `Path=/`, ten minutes.
enum OIDCBindingCookie {
    /// The name for a request over https or not.
    static func name(https: Bool) -> String { https ? "__Host-caresync_oidc" : "caresync_oidc" }

    /// The `Set-Cookie` value carrying `value`.
    static func setting(_ value: String, https: Bool, maxAge: Int) -> String {
        "\(name(https: https))=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Lax" + (https ? "; Secure" : "")
    }

    /// The `Set-Cookie` value removing it.
    static func clearing(https: Bool) -> String {
        "\(name(https: https))=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax" + (https ? "; Secure" : "")
    }

    /// The cookie's value in a `Cookie` header, or nil.
    static func value(in cookieHeader: String, https: Bool) -> String? {
        let wanted = name(https: https)
        for pair in cookieHeader.split(separator: ";") {
            let trimmed = pair.trimmingCharacters(in: .whitespaces)
            guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == wanted else { continue }
            return String(trimmed[trimmed.index(after: equals)...])
        }
        return nil
    }
}
