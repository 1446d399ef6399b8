import CareSyncCore
import CareSyncTestSupport
import Testing

/// WebAuthn §7.2 with a software authenticator: a sign-in returns the person and advances the counter; a tampered,
/// replayed, late, foreign or cloned assertion is refused and changes nothing.
struct PasskeySignInTests {
    /// A rig with one registered ES256 passkey for "person-1".
    static func registered() throws -> (PasskeyTestRig, SoftAuthenticator) {
        let rig = PasskeyTestRig()
        var authenticator = SoftAuthenticator.es256()
        _ = try rig.register(&authenticator)
        return (rig, authenticator)
    }

    @Test func aSignInNamesThePersonAndRecordsTheCounterAndTime() throws {
        var (rig, authenticator) = try Self.registered()
        rig.clock.advance(by: 60)
        let signedIn = try rig.ceremonies.finishSignIn(try authenticator.assert(try rig.ceremonies.beginSignIn()))
        #expect(signedIn.personID == "person-1" && signedIn.signCount == 2 && signedIn.lastUsedAt == rig.clock.now())
        #expect(try rig.store.passkey(credentialID: authenticator.credentialID) == signedIn)
    }

    @Test func anRS256SignInIsVerified() throws {
        let rig = PasskeyTestRig()
        var authenticator = try SoftAuthenticator.rs256()
        _ = try rig.register(&authenticator)
        #expect(try rig.ceremonies.finishSignIn(try authenticator.assert(try rig.ceremonies.beginSignIn())).signCount == 2)
    }

    @Test(arguments: ["authenticatorData", "clientDataJSON", "signature"])
    func anAssertionWithOneBitFlippedIsRefused(part: String) throws {
        var (rig, authenticator) = try Self.registered()
        let honest = try authenticator.assert(try rig.ceremonies.beginSignIn())
        var authData = honest.authenticatorData, clientData = honest.clientDataJSON, signature = honest.signature
        switch part {
        case "authenticatorData": authData[36] ^= 0x01        // the counter's last bit: still a well-formed, plausible value
        case "clientDataJSON": clientData[clientData.count - 3] ^= 0x20   // a letter of `false` changes case: no longer JSON
        default: signature[signature.count - 1] ^= 0x01
        }
        let tampered = PasskeyAssertionResponse(credentialID: honest.credentialID, clientDataJSON: clientData, authenticatorData: authData,
                                                signature: signature, userHandle: honest.userHandle)
        #expect(throws: PasskeyError.self) { try rig.ceremonies.finishSignIn(tampered) }
        #expect(try rig.store.passkey(credentialID: authenticator.credentialID)?.signCount == 1)
    }

    @Test func aSignatureWithOneBitFlippedIsABadSignature() throws {
        var (rig, authenticator) = try Self.registered()
        let honest = try authenticator.assert(try rig.ceremonies.beginSignIn())
        var authData = honest.authenticatorData
        authData[36] ^= 0x01
        let tampered = PasskeyAssertionResponse(credentialID: honest.credentialID, clientDataJSON: honest.clientDataJSON, authenticatorData: authData,
                                                signature: honest.signature, userHandle: honest.userHandle)
        #expect(throws: PasskeyError.badSignature) { try rig.ceremonies.finishSignIn(tampered) }
    }

    @Test func aReplayedAssertionIsRefused() throws {
        var (rig, authenticator) = try Self.registered()
        let response = try authenticator.assert(try rig.ceremonies.beginSignIn())
        _ = try rig.ceremonies.finishSignIn(response)
        #expect(throws: PasskeyError.unknownChallenge) { try rig.ceremonies.finishSignIn(response) }
    }

    @Test func aChallengeNeverIssuedIsRefused() throws {
        var (rig, authenticator) = try Self.registered()
        let response = try authenticator.assert(challenge: PasskeyChallenges.systemRandom(32))
        #expect(throws: PasskeyError.unknownChallenge) { try rig.ceremonies.finishSignIn(response) }
    }

    @Test func aRegistrationChallengeCannotSignIn() throws {
        var (rig, authenticator) = try Self.registered()
        let options = try rig.ceremonies.beginRegistration(personID: "person-1", userName: "theo", displayName: "Theo")
        let response = try authenticator.assert(challenge: options.challenge)
        #expect(throws: PasskeyError.unknownChallenge) { try rig.ceremonies.finishSignIn(response) }
    }

    @Test func anExpiredChallengeIsRefusedAndUsedUp() throws {
        var (rig, authenticator) = try Self.registered()
        let options = try rig.ceremonies.beginSignIn()
        rig.clock.advance(by: 299.999)
        let inTime = try authenticator.assert(options)
        _ = try rig.ceremonies.finishSignIn(inTime)
        let late = try rig.ceremonies.beginSignIn()
        rig.clock.advance(by: 300)
        let response = try authenticator.assert(late)
        #expect(throws: PasskeyError.expiredChallenge) { try rig.ceremonies.finishSignIn(response) }
        #expect(throws: PasskeyError.unknownChallenge) { try rig.ceremonies.finishSignIn(response) }
    }

    @Test(arguments: [
        ("wrong type", .with { $0.type = "webauthn.create" }, PasskeyError.wrongType("webauthn.create")),
        ("wrong origin", .with { $0.origin = "http://localhost:8081" }, .originNotAllowed("http://localhost:8081")),
        ("cross-origin frame", .with { $0.crossOrigin = true }, .crossOrigin),
        ("wrong rp id", .with { $0.rpID = "127.0.0.1" }, .relyingPartyMismatch),
        ("UV missing", .with { $0.flags = 0x01 }, .userNotVerified),
        ("UP missing", .with { $0.flags = 0x04 }, .userNotPresent),
        ("counter going back", .with { $0.signCount = 1 }, .signCountNotIncreased(stored: 1, received: 1)),
        ("counter back to zero", .with { $0.signCount = 0 }, .signCountNotIncreased(stored: 1, received: 0)),
        ("no user handle", .with { $0.userHandle = .some(nil) }, .userHandleMismatch),
        ("another user's handle", .with { $0.userHandle = [1, 2, 3] }, .userHandleMismatch),
    ] as [(String, SoftAuthenticator.Tweaks, PasskeyError)])
    func aBrokenAssertionIsRefusedAndChangesNothing(name: String, tweaks: SoftAuthenticator.Tweaks, expected: PasskeyError) throws {
        var (rig, authenticator) = try Self.registered()
        let response = try authenticator.assert(try rig.ceremonies.beginSignIn(), tweaks)
        #expect(throws: expected, "\(name)") { try rig.ceremonies.finishSignIn(response) }
        let stored = try rig.store.passkey(credentialID: authenticator.credentialID)
        #expect(stored?.signCount == 1 && stored?.lastUsedAt == nil, "\(name)")
    }

    @Test func countersOfZeroOnBothSidesAreAccepted() throws {
        let rig = PasskeyTestRig()
        var authenticator = SoftAuthenticator.es256()
        let options = try rig.ceremonies.beginRegistration(personID: "p", userName: "p", displayName: "P")
        var zero = SoftAuthenticator.Tweaks()
        zero.signCount = 0
        _ = try rig.ceremonies.finishRegistration(try authenticator.register(options, zero), personID: "p", name: "key")
        #expect(try rig.ceremonies.finishSignIn(try authenticator.assert(try rig.ceremonies.beginSignIn(), zero)).signCount == 0)
    }

    @Test func aRemovedPasskeyNoLongerSignsIn() throws {
        var (rig, authenticator) = try Self.registered()
        #expect(try !rig.ceremonies.removePasskey(credentialID: authenticator.credentialID, of: "person-2"))
        #expect(try rig.ceremonies.removePasskey(credentialID: authenticator.credentialID, of: "person-1"))
        let response = try authenticator.assert(try rig.ceremonies.beginSignIn())
        #expect(throws: PasskeyError.unknownCredential) { try rig.ceremonies.finishSignIn(response) }
        #expect(try rig.ceremonies.passkeys(of: "person-1").isEmpty)
    }

    @Test func anotherPersonsKeyCannotSignForThisCredential() throws {
        let (rig, authenticator) = try Self.registered()
        var impostor = SoftAuthenticator.es256()
        impostor.userHandle = authenticator.userHandle
        let forged = try impostor.assert(try rig.ceremonies.beginSignIn())
        let response = PasskeyAssertionResponse(credentialID: authenticator.credentialID, clientDataJSON: forged.clientDataJSON,
                                                authenticatorData: forged.authenticatorData, signature: forged.signature, userHandle: forged.userHandle)
        #expect(throws: PasskeyError.badSignature) { try rig.ceremonies.finishSignIn(response) }
    }
}
