import Foundation

/// The passkey ceremonies an endpoint runs: begin and finish registration, begin and finish sign-in, and a person's
/// passkeys. It ties the verifier to the pending challenges and the credential store; HTTP, sessions, audit and
/// logging stay the caller's.
public struct PasskeyCeremonies: Sendable {
    /// The relying party and its checks.
    public let verifier: PasskeyVerifier
    /// Pending challenges.
    public let challenges: PasskeyChallenges
    /// Registered credentials.
    public let store: any PasskeyStore
    private let clock: ServerClock

    /// Ceremonies for `relyingParty` over `store`; `clock`'s wall time stamps created and last-used times.
    public init(relyingParty: PasskeyRelyingParty, challenges: PasskeyChallenges, store: any PasskeyStore, clock: ServerClock) {
        self.verifier = PasskeyVerifier(relyingParty: relyingParty)
        self.challenges = challenges
        self.store = store
        self.clock = clock
    }

    /// Starts registering a passkey for `personID`: reuses the user handle of the person's passkeys (a fresh random one
    /// for the first) and excludes the credentials they have. Send `json` to the browser.
    public func beginRegistration(personID: String, userName: String, displayName: String) throws -> PasskeyCreationOptions {
        let existing = try store.passkeys(person: personID)
        let userHandle = existing.first?.userHandle ?? challenges.randomBytes(32)
        let challenge = try challenges.issue(for: .registration(personID: personID, userHandle: userHandle))
        return verifier.relyingParty.creationOptions(challenge: challenge, userHandle: userHandle, userName: userName,
                                                     displayName: displayName, excluding: existing.map(\.credentialID),
                                                     timeout: challenges.lifetime)
    }

    /// Verifies the browser's registration response for `personID` (who must be the one registration began for) and
    /// stores the credential under `name`. Throws `PasskeyError` for anything the client got wrong.
    public func finishRegistration(_ response: PasskeyRegistrationResponse, personID: String, name: String) throws -> PasskeyCredential {
        let clientData = try CollectedClientData(parsing: response.clientDataJSON)
        guard case .registration(let expectedPerson, let userHandle) = try challenges.consume(clientData.challenge),
              expectedPerson == personID else { throw PasskeyError.unknownChallenge }
        let verified = try verifier.verifyRegistration(response, challenge: clientData.challenge)
        guard try store.passkey(credentialID: verified.credentialID) == nil else { throw PasskeyError.credentialAlreadyRegistered }
        let credential = PasskeyCredential(
            credentialID: verified.credentialID, personID: personID, userHandle: userHandle, publicKeyCOSE: verified.publicKeyCOSE,
            algorithm: verified.algorithm.rawValue, signCount: verified.signCount, aaguid: verified.aaguid,
            backupEligible: verified.backupEligible, backedUp: verified.backedUp, name: name, createdAt: clock.now())
        do { try store.insertPasskey(credential) } catch PasskeyStoreError.alreadyExists { throw PasskeyError.credentialAlreadyRegistered }
        return credential
    }

    /// Starts a discoverable sign-in. Send `json` to the browser.
    public func beginSignIn() throws -> PasskeyRequestOptions {
        verifier.relyingParty.requestOptions(challenge: try challenges.issue(for: .signIn), timeout: challenges.lifetime)
    }

    /// Verifies the browser's assertion and records the use; returns the credential as now stored (its `personID` is
    /// who signed in). `signCountNotIncreased` means a possible clone: log it and audit it.
    public func finishSignIn(_ response: PasskeyAssertionResponse) throws -> PasskeyCredential {
        let clientData = try CollectedClientData(parsing: response.clientDataJSON)
        guard case .signIn = try challenges.consume(clientData.challenge) else { throw PasskeyError.unknownChallenge }
        guard var credential = try store.passkey(credentialID: response.credentialID) else { throw PasskeyError.unknownCredential }
        let verified = try verifier.verifyAssertion(response, challenge: clientData.challenge, credential: credential)
        let at = clock.now()
        // Another sign-in with the same counter value won the race: this one is a replay or a clone.
        guard try store.recordPasskeyUse(credentialID: credential.credentialID, expectedSignCount: credential.signCount,
                                         signCount: verified.signCount, backedUp: verified.backedUp, at: at) else {
            guard try store.passkey(credentialID: credential.credentialID) != nil else { throw PasskeyError.unknownCredential }
            throw PasskeyError.signCountNotIncreased(stored: credential.signCount, received: verified.signCount)
        }
        credential.signCount = verified.signCount
        credential.backedUp = verified.backedUp
        credential.lastUsedAt = at
        return credential
    }

    /// A person's passkeys, oldest first.
    public func passkeys(of personID: String) throws -> [PasskeyCredential] { try store.passkeys(person: personID) }

    /// Removes one of a person's passkeys; false when they have none with this id.
    public func removePasskey(credentialID: [UInt8], of personID: String) throws -> Bool {
        try store.deletePasskey(credentialID: credentialID, person: personID)
    }
}
