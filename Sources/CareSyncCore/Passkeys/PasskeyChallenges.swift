import CareSyncLocking
import Crypto
import Foundation

/// What a challenge was issued for; `PasskeyChallenges.consume` hands it back once.
public enum PasskeyCeremony: Hashable, Sendable {
    /// Registering a passkey for `personID` under the WebAuthn user id `userHandle`.
    case registration(personID: String, userHandle: [UInt8])
    /// Signing in with a discoverable passkey (anyone's).
    case signIn
}

/// Pending ceremonies: each challenge is 32 random bytes, valid for `lifetime` and usable once (a failed attempt uses
/// it up too). Kept in this server instance's memory: a ceremony begun on one instance must finish on the same one
/// (behind a load balancer, route `/v1/passkeys/*` with session affinity), and a restart forgets pending ceremonies,
/// which only makes a user tap again. At most `capacity` are pending; beyond that `begin` is refused.
public final class PasskeyChallenges: Sendable {
    /// How long a challenge stays valid.
    public let lifetime: TimeInterval
    /// How many ceremonies may be pending at once.
    public let capacity: Int
    private let clock: ServerClock
    /// Makes `count` random bytes: the system's cryptographically secure generator unless a test injects another.
    let randomBytes: @Sendable (Int) -> [UInt8]
    /// Pending ceremonies by SHA-256 of their challenge: a lookup reveals nothing usable about a challenge's bytes,
    /// and the challenge itself is then compared in constant time.
    private let pending = Locked<[[UInt8]: Pending]>([:])

    private struct Pending: Sendable {
        let challenge: [UInt8]
        let ceremony: PasskeyCeremony
        let expiresAt: Date
    }

    /// An empty store reading wall time from `clock`; tests inject a hand-moved one, and may inject `random` to replay
    /// recorded browser ceremonies.
    public init(lifetime: TimeInterval = 300, capacity: Int = 10_000, clock: ServerClock,
                random: @escaping @Sendable (Int) -> [UInt8] = PasskeyChallenges.systemRandom) {
        self.lifetime = lifetime
        self.capacity = capacity
        self.clock = clock
        self.randomBytes = random
    }

    /// `count` bytes from `SystemRandomNumberGenerator` (getrandom(2) on Linux, arc4random on Darwin).
    public static func systemRandom(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// A fresh challenge for `ceremony`; `tooManyPendingCeremonies` when `capacity` unexpired ones are pending.
    public func issue(for ceremony: PasskeyCeremony) throws(PasskeyError) -> [UInt8] {
        let challenge = randomBytes(32)
        let at = clock.now()
        let issued = pending.withLock { pending -> Bool in
            if pending.count >= capacity { pending = pending.filter { $0.value.expiresAt > at } }
            guard pending.count < capacity else { return false }
            pending[Self.key(challenge)] = Pending(challenge: challenge, ceremony: ceremony, expiresAt: at.addingTimeInterval(lifetime))
            return true
        }
        guard issued else { throw .tooManyPendingCeremonies }
        return challenge
    }

    /// Takes the ceremony `challenge` was issued for, removing it: `unknownChallenge` when it was never issued or is
    /// used already, `expiredChallenge` when its lifetime is over.
    public func consume(_ challenge: [UInt8]) throws(PasskeyError) -> PasskeyCeremony {
        let at = clock.now()
        let found = pending.withLock { $0.removeValue(forKey: Self.key(challenge)) }
        guard let found, ConstantTime.equal(found.challenge, challenge) else { throw .unknownChallenge }
        guard at < found.expiresAt else { throw .expiredChallenge }
        return found.ceremony
    }

    /// How many ceremonies are pending (expired ones included until they are swept).
    public var pendingCount: Int { pending.withLock { $0.count } }

    private static func key(_ challenge: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: challenge)) }
}
