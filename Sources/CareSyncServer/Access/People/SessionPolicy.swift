import Foundation

/// How long sessions and invitations last (`sessions.*`, `invitations.*` configuration).
public struct SessionPolicy: Sendable, Hashable {
    /// A session unused this long ends (OWASP ASVS 3.3.2's idle timeout): 30 minutes.
    public var idleTimeout: TimeInterval = 30 * 60
    /// A session ends this long after its sign-in, however used (ASVS 3.3.4's absolute timeout): 12 hours.
    public var absoluteTimeout: TimeInterval = 12 * 3600
    /// An invitation link works this long: 72 hours.
    public var invitationLifetime: TimeInterval = 72 * 3600
    /// A session's last use is written at most this often, so every request does not cost a write.
    public var touchInterval: TimeInterval = 60

    /// The defaults.
    public init() {}
}
