import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing

/// Pending ceremonies: fresh random challenges, used once, valid for their lifetime only, bounded in number.
struct PasskeyChallengesTests {
    @Test func aChallengeIs32FreshBytesAndWorksOnce() throws {
        let clock = ManualClock(at: PasskeyTestRig.start)
        let challenges = PasskeyChallenges(store: InstanceCeremonyStore(), clock: clock.serverClock)
        let a = try challenges.issue(for: .signIn), b = try challenges.issue(for: .registration(personID: "p", userHandle: [9]))
        #expect(a.count == 32 && b.count == 32 && a != b)
        #expect(try challenges.consume(b) == .registration(personID: "p", userHandle: [9]))
        #expect(throws: PasskeyError.unknownChallenge) { try challenges.consume(b) }
        #expect(try challenges.consume(a) == .signIn && (try challenges.pendingCount) == 0)
    }

    @Test func aChallengeExpiresAtTheEndOfItsLifetime() throws {
        let clock = ManualClock(at: PasskeyTestRig.start)
        let challenges = PasskeyChallenges(store: InstanceCeremonyStore(), lifetime: 300, clock: clock.serverClock)
        let early = try challenges.issue(for: .signIn), late = try challenges.issue(for: .signIn)
        clock.advance(by: 299.999)
        #expect(try challenges.consume(early) == .signIn)
        clock.advance(by: 0.001)
        #expect(throws: PasskeyError.expiredChallenge) { try challenges.consume(late) }
        #expect(throws: PasskeyError.unknownChallenge) { try challenges.consume(late) }
    }

    @Test func aChallengeDifferingInOneBitIsUnknown() throws {
        let challenges = PasskeyChallenges(store: InstanceCeremonyStore(), clock: .system)
        var challenge = try challenges.issue(for: .signIn)
        challenge[31] ^= 1
        #expect(throws: PasskeyError.unknownChallenge) { try challenges.consume(challenge) }
        #expect(throws: PasskeyError.unknownChallenge) { try challenges.consume([]) }
    }

    @Test func pendingCeremoniesAreBoundedAndExpiredOnesMakeRoom() throws {
        let clock = ManualClock(at: PasskeyTestRig.start)
        let challenges = PasskeyChallenges(store: InstanceCeremonyStore(), lifetime: 300, capacity: 3, clock: clock.serverClock)
        for _ in 0..<3 { _ = try challenges.issue(for: .signIn) }
        #expect(throws: PasskeyError.tooManyPendingCeremonies) { try challenges.issue(for: .signIn) }
        clock.advance(by: 300)
        _ = try challenges.issue(for: .signIn)
        #expect(try challenges.pendingCount == 1)
    }
}
