import CareSyncCore

/// A session just started for a person: what the sign-in answer carries. `secret` goes only into the `Set-Cookie`
/// header (`SessionCookie.setting`), `csrfToken` into the body; neither is logged or audited.
public struct SignIn: Sendable {
    /// Who signed in.
    public var person: PersonRecord
    /// The new session's record (its public id, times).
    public var session: SessionRecord
    /// The cookie's secret, shown this once.
    public var secret: String
    /// The session's CSRF token (`X-CSRF-Token`).
    public var csrfToken: String { SessionSecret.csrfToken(forSessionSecret: secret) }
}
