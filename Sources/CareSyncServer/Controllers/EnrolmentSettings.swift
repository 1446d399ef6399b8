import Foundation

/// How device enrolments behave: code lifetime, the public origin of enrolment links, and the redemption budget.
public struct EnrolmentSettings: Sendable, Hashable {
    /// How long a code may be redeemed.
    public var codeLifetime: TimeInterval = 15 * 60
    /// The public origin of enrolment links (`https://caresync.example.org`); nil: `http://` and the request's `Host`.
    public var publicURL: String?
    /// Redemption attempts per minute a client address earns; 0 disables the limit.
    public var redeemPerMinute: Double = 10
    /// Redemption attempts a client address may make at once.
    public var redeemBurst: Double = 10
    /// The defaults.
    public init() {}
}
