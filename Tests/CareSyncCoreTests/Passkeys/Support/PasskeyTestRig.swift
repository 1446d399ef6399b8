import CareSyncCore
import CareSyncReferenceModel
import CareSyncTestSupport
import Foundation

/// Ceremonies over an in-memory store and a hand-moved clock, as the tests build them.
struct PasskeyTestRig {
    /// Where the rig's clock starts.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    let clock = ManualClock(at: PasskeyTestRig.start)
    let store = InMemoryPasskeyStore()
    let ceremonies: PasskeyCeremonies

    /// A rig for `relyingParty`; `random` replaces the system generator (to replay recorded browser ceremonies).
    init(relyingParty: PasskeyRelyingParty = SoftAuthenticator.relyingParty, random: (@Sendable (Int) -> [UInt8])? = nil) {
        let challenges = PasskeyChallenges(store: InstanceCeremonyStore(), lifetime: 300, clock: clock.serverClock, random: random ?? PasskeyChallenges.systemRandom)
        ceremonies = PasskeyCeremonies(relyingParty: relyingParty, challenges: challenges, store: store, clock: clock.serverClock)
    }

    /// Registers `authenticator` for `person` and returns the stored credential.
    func register(_ authenticator: inout SoftAuthenticator, person: String = "person-1", name: String = "Laptop") throws -> PasskeyCredential {
        let options = try ceremonies.beginRegistration(personID: person, userName: "theo@clinic.example", displayName: "Theo")
        return try ceremonies.finishRegistration(try authenticator.register(options), personID: person, name: name)
    }
}
