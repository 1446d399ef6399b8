import CareSyncCore
import CareSyncHTTP
import Foundation
import CareSyncLocking

/// One sign-in begun at `GET /v1/oidc/start` and not yet returned: what the callback needs, kept on the server.
struct PendingLogin: Sendable {
    /// The `state` sent to the provider (256 random bits).
    var state: String
    /// The `nonce` the ID token must carry.
    var nonce: String
    /// The PKCE code verifier.
    var verifier: String
    /// SHA-256 of the browser binding cookie's value: only the browser that started may finish.
    var bindingHash: [UInt8]
    /// The redirect URI sent (the token request repeats it).
    var redirectURI: String
    /// An invitation's secret to accept through the provider, or nil.
    var invitation: String?
    /// Where the web app continues after sign-in (a same-origin path).
    var returnPath: String
    /// When it stops being accepted.
    var expiresAt: Date
}

/// Sign-ins in progress, in this instance's memory: each is taken once (a replayed callback finds nothing), lives
/// `lifetime` seconds, and at most `capacity` exist at once (then `start` answers 503 until some end).
final class OIDCLogins: Sendable {
    /// How long a sign-in may take at the provider.
    let lifetime: TimeInterval
    /// The most sign-ins in progress.
    let capacity: Int
    private let pending = Locked([String: PendingLogin]())

    /// An empty set.
    init(lifetime: TimeInterval = 600, capacity: Int = 10_000) { self.lifetime = lifetime; self.capacity = capacity }

    /// Stores a new sign-in; 503 when `capacity` are in progress (expired ones are dropped first).
    func insert(_ login: PendingLogin, now: Date) throws {
        try pending.withLock { all in
            if all.count >= capacity { all = all.filter { $0.value.expiresAt > now } }
            guard all.count < capacity else { throw HTTPError.unavailable("Too many sign-ins are in progress; retry in a minute.") }
            all[login.state] = login
        }
    }

    /// Removes and returns the sign-in `state` names when it has not expired; nil otherwise (never seen, taken, expired).
    func take(state: String, now: Date) -> PendingLogin? {
        pending.withLock { all in all.removeValue(forKey: state) }.flatMap { $0.expiresAt > now ? $0 : nil }
    }

    /// How many are stored now (tests).
    var count: Int { pending.withLock { $0.count } }
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
