import Foundation

/// What a challenge was issued for; `PasskeyChallenges.consume` hands it back once.
public enum PasskeyCeremony: Hashable, Sendable, Codable {
    /// Registering a passkey for `personID` under the WebAuthn user id `userHandle`.
    case registration(personID: String, userHandle: [UInt8])
    /// Signing in with a discoverable passkey (anyone's).
    case signIn
}

/// Pending ceremonies: each challenge is 32 random bytes, valid for `lifetime` and usable once (a failed attempt uses
/// it up too). Kept in the `PendingCeremonyStore` every instance shares, under the SHA-256 of the challenge (the store
/// never holds a challenge), so a ceremony begun on one instance may finish on another. At most `capacity` are
/// pending; beyond that `issue` is refused.
public final class PasskeyChallenges: Sendable {
    /// How long a challenge stays valid.
    public let lifetime: TimeInterval
    /// How many ceremonies may be pending at once.
    public let capacity: Int
    private let store: any PendingCeremonyStore
    private let clock: ServerClock
    /// Makes `count` random bytes: the system's cryptographically secure generator unless a test injects another.
    let randomBytes: @Sendable (Int) -> [UInt8]

    /// Challenges kept in `store`, reading wall time from `clock`; tests inject a hand-moved one, and may inject
    /// `random` to replay recorded browser ceremonies.
    public init(store: any PendingCeremonyStore, lifetime: TimeInterval = 300, capacity: Int = 10_000, clock: ServerClock,
                random: @escaping @Sendable (Int) -> [UInt8] = PasskeyChallenges.systemRandom) {
        self.store = store
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
    public func issue(for ceremony: PasskeyCeremony) throws -> [UInt8] {
        let challenge = randomBytes(32)
        let at = clock.now()
        guard try store.insertCeremony(ceremony, kind: .passkey, handle: challenge, expiresAt: at.addingTimeInterval(lifetime),
                                       capacity: capacity, at: at) else { throw PasskeyError.tooManyPendingCeremonies }
        return challenge
    }

    /// Takes the ceremony `challenge` was issued for, removing it: `unknownChallenge` when it was never issued or is
    /// used already, `expiredChallenge` when its lifetime is over.
    public func consume(_ challenge: [UInt8]) throws -> PasskeyCeremony {
        switch try store.takeCeremony(PasskeyCeremony.self, kind: .passkey, handle: challenge, at: clock.now()) {
        case .unknown: throw PasskeyError.unknownChallenge
        case .expired: throw PasskeyError.expiredChallenge
        case .live(let ceremony): return ceremony
        }
    }

    /// How many ceremonies are pending (expired ones included until they are swept).
    public var pendingCount: Int { get throws { try store.ceremonyCount(kind: .passkey) } }
}
