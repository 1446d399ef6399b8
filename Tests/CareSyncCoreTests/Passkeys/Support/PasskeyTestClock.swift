import CareSyncCore
import CareSyncReferenceModel
import Foundation
import Synchronization

/// A clock tests move by hand.
final class PasskeyTestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    /// The time now.
    var now: Date { current.withLock { $0 } }

    /// Moves the clock forward.
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// Ceremonies over an in-memory store and a hand-moved clock, as the tests build them.
struct PasskeyTestRig {
    let clock = PasskeyTestClock()
    let store = InMemoryPasskeyStore()
    let ceremonies: PasskeyCeremonies

    /// A rig for `relyingParty`; `random` replaces the system generator (to replay recorded browser ceremonies).
    init(relyingParty: PasskeyRelyingParty = SoftAuthenticator.relyingParty, random: (@Sendable (Int) -> [UInt8])? = nil) {
        let clock = self.clock
        let challenges = PasskeyChallenges(lifetime: 300, now: { clock.now }, random: random ?? PasskeyChallenges.systemRandom)
        ceremonies = PasskeyCeremonies(relyingParty: relyingParty, challenges: challenges, store: store, now: { clock.now })
    }

    /// Registers `authenticator` for `person` and returns the stored credential.
    func register(_ authenticator: inout SoftAuthenticator, person: String = "person-1", name: String = "Laptop") throws -> PasskeyCredential {
        let options = try ceremonies.beginRegistration(personID: person, userName: "theo@clinic.example", displayName: "Theo")
        return try ceremonies.finishRegistration(try authenticator.register(options), personID: person, name: name)
    }
}
