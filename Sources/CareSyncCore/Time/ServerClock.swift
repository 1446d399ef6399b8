import Foundation

/// The server's one source of time: wall time for what is stored and compared with stored times (audit records,
/// expiries), monotonic time for what is measured (deadlines, rates, intervals). Everything that decides by time
/// takes one; `system` reads the machine, tests pass a hand-moved one.
public struct ServerClock: Sendable {
    /// Wall time now.
    public let now: @Sendable () -> Date
    /// Monotonic time now (never goes back, unlike the wall clock).
    public let instant: @Sendable () -> ContinuousClock.Instant

    /// A clock reading wall time from `now` and monotonic time from `instant`.
    public init(now: @escaping @Sendable () -> Date, instant: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.now = now
        self.instant = instant
    }

    /// The machine's clocks: `Date()` and `ContinuousClock.now`.
    public static let system = ServerClock(now: { Date() }, instant: { ContinuousClock.now })
}
