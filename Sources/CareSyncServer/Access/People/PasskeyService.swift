import CareSyncCore
import CareSyncHTTP
import Foundation
import CareSyncLocking

/// The passkey ceremonies of this server: the relying party (`webAuthn.*`, completed with the listener's port when no
/// origin is configured), its pending challenges (5 minutes, single use, in the store every instance shares) and the
/// credential store.
public final class PasskeyService: Sendable {
    /// Registered passkeys; nil when the server was built without them (every passkey endpoint then answers 503).
    public let store: (any PasskeyStore)?
    /// Pending ceremonies.
    public let challenges: PasskeyChallenges
    private let settings: WebAuthnSettings
    private let publicOrigins: [String]
    private let relyingParty: Locked<PasskeyRelyingParty>
    private let clock: ServerClock

    /// The service for `settings` over `store`, its challenges kept in `ceremonies`; origins come from `settings`, else
    /// `publicOrigins`, else `listening(on:)`.
    public init(store: (any PasskeyStore)?, ceremonies: any PendingCeremonyStore, settings: WebAuthnSettings, publicOrigins: [String],
                clock: ServerClock, random: @escaping @Sendable (Int) -> [UInt8] = PasskeyChallenges.systemRandom) {
        self.store = store
        self.settings = settings
        self.publicOrigins = publicOrigins
        self.clock = clock
        challenges = PasskeyChallenges(store: ceremonies, lifetime: 300, clock: clock, random: random)
        relyingParty = Locked(settings.relyingParty(publicOrigins: publicOrigins, port: nil))
    }

    /// Completes the default origin with the port the listener bound (`http://localhost:<port>`).
    public func listening(on port: Int) {
        relyingParty.withLock { $0 = settings.relyingParty(publicOrigins: publicOrigins, port: port) }
    }

    /// The relying party as it stands.
    public var currentRelyingParty: PasskeyRelyingParty { relyingParty.withLock { $0 } }

    /// The ceremonies over the current relying party; 503 when the server has no passkey store.
    func ceremonies() throws -> PasskeyCeremonies {
        guard let store else { throw HTTPError.unavailable("Passkeys are not available on this server.") }
        return PasskeyCeremonies(relyingParty: currentRelyingParty, challenges: challenges, store: store, clock: clock)
    }
}
