import CareSyncCore
import Foundation

/// The one test clock: wall and monotonic time a test moves by hand, together (`advance`, `set`); the server reads it
/// through `serverClock`. Frozen between moves, or `running` with real time as well, for jobs that sleep real time
/// between two reads (the webhook dispatcher's retries).
public final class ManualClock: Sendable {
    /// How far the test has moved each time from where it started.
    private struct Moved: Sendable {
        var wall: TimeInterval = 0
        var monotonic: Duration = .zero
    }
    private let startWall: Date
    private let startInstant = ContinuousClock.now
    private let running: Bool
    private let moved = Shared(Moved())

    /// A clock reading `start` (by default the real time now), frozen unless `running`.
    public init(at start: Date = Date(), running: Bool = false) {
        startWall = start
        self.running = running
    }

    /// Wall time now.
    public func now() -> Date { startWall.addingTimeInterval(Self.seconds(elapsed) + moved.current.wall) }

    /// Monotonic time now.
    public func instant() -> ContinuousClock.Instant { startInstant + elapsed + moved.current.monotonic }

    /// Moves both times forward by `seconds`.
    public func advance(by seconds: TimeInterval) {
        moved.update { $0.wall += seconds; $0.monotonic += Self.duration(seconds) }
    }

    /// Sets wall time to `date`; monotonic time moves forward by as much, and stays put when `date` is earlier (a wall
    /// clock can be set back, a monotonic one cannot).
    public func set(_ date: Date) {
        let elapsed = Self.seconds(self.elapsed)
        moved.update { moved in
            let delta = date.timeIntervalSince(startWall) - elapsed - moved.wall
            moved.wall += delta
            if delta > 0 { moved.monotonic += Self.duration(delta) }
        }
    }

    /// This clock as the server's clock.
    public var serverClock: ServerClock { ServerClock(now: { self.now() }, instant: { self.instant() }) }

    /// Real time since the clock was made when running, else none.
    private var elapsed: Duration { running ? ContinuousClock.now - startInstant : .zero }

    /// `duration` in seconds.
    private static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// `seconds` as a duration, to the nanosecond.
    private static func duration(_ seconds: TimeInterval) -> Duration { .nanoseconds(Int64((seconds * 1e9).rounded())) }
}
