import CareSyncCore
import CareSyncLocking

/// Token buckets keyed by a string (a token id, a client address): each key may spend `burst` requests at
/// once and earns `perSecond` back; a key with nothing left is told how long to wait. Memory is bounded:
/// past `maxKeys`, buckets that have refilled completely are forgotten (a full bucket equals no bucket).
public final class RateLimiter: Sendable {
    /// How many requests a key earns per second; 0 disables the limiter.
    public let perSecond: Double
    /// How many requests a key may spend at once.
    public let burst: Double
    private let maxKeys: Int
    private let clock: ServerClock
    private let buckets = Locked<[String: Bucket]>([:])

    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    /// A limiter earning `perSecond` up to `burst` per key, timed by `clock`'s monotonic time; `perSecond` 0 admits everything.
    public init(perSecond: Double, burst: Double, maxKeys: Int = 100_000, clock: ServerClock) {
        self.perSecond = perSecond
        self.burst = max(1, burst)
        self.maxKeys = maxKeys
        self.clock = clock
    }

    /// Whether the limiter refuses anything at all.
    public var isEnabled: Bool { perSecond > 0 }

    /// Spends one request of `key`: nil when admitted, else the whole seconds to wait before the next one is (at least 1).
    public func spend(_ key: String) -> Int? {
        guard isEnabled else { return nil }
        let now = clock.instant()
        return buckets.withLock { buckets in
            var bucket = buckets[key].map { refilled($0, at: now) } ?? Bucket(tokens: burst, updated: now)
            guard bucket.tokens >= 1 else {
                buckets[key] = bucket
                return Self.wholeSeconds((1 - bucket.tokens) / perSecond)
            }
            bucket.tokens -= 1
            if buckets[key] == nil, buckets.count >= maxKeys { forgetFull(&buckets, at: now) }
            buckets[key] = bucket
            return nil
        }
    }

    /// Gives back one request `spend` took from `key` (a reservation that turned out not to count), up to `burst`.
    public func refund(_ key: String) {
        guard isEnabled else { return }
        let now = clock.instant()
        buckets.withLock { buckets in
            guard let stored = buckets[key] else { return }
            var bucket = refilled(stored, at: now)
            bucket.tokens = min(burst, bucket.tokens + 1)
            buckets[key] = bucket
        }
    }

    /// The seconds `key` must wait before a request is admitted, without spending; nil when it may go now.
    public func wait(for key: String) -> Int? {
        guard isEnabled else { return nil }
        let now = clock.instant()
        return buckets.withLock { buckets in
            guard let stored = buckets[key] else { return nil }
            let bucket = refilled(stored, at: now)
            return bucket.tokens >= 1 ? nil : Self.wholeSeconds((1 - bucket.tokens) / perSecond)
        }
    }

    /// How many keys are remembered (tests check the bound).
    public var keyCount: Int { buckets.withLock { $0.count } }

    private func refilled(_ bucket: Bucket, at now: ContinuousClock.Instant) -> Bucket {
        let elapsed = bucket.updated.duration(to: now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Bucket(tokens: min(burst, bucket.tokens + max(0, seconds) * perSecond), updated: now)
    }

    private func forgetFull(_ buckets: inout [String: Bucket], at now: ContinuousClock.Instant) {
        buckets = buckets.filter { refilled($0.value, at: now).tokens < burst }
    }

    private static func wholeSeconds(_ seconds: Double) -> Int {
        max(1, Int(seconds.rounded(.up)))
    }
}
