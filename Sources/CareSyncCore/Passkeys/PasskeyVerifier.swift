import Crypto

/// The relying party's checks of WebAuthn Level 2 §7.1 (registering a new credential) and §7.2 (verifying an
/// authentication assertion), in the spec's order, each a small step. Pure: no store, no clock.
public struct PasskeyVerifier: Sendable {
    /// Who we are: RP ID and accepted origins.
    public let relyingParty: PasskeyRelyingParty

    /// A verifier for `relyingParty`.
    public init(relyingParty: PasskeyRelyingParty) { self.relyingParty = relyingParty }

    /// What a verified registration yields, ready to store.
    public struct Registration: Hashable, Sendable {
        /// The new credential's id.
        public let credentialID: [UInt8]
        /// Its COSE public key bytes.
        public let publicKeyCOSE: [UInt8]
        /// Its COSE algorithm.
        public let algorithm: COSEPublicKey.Algorithm
        /// The initial signature counter.
        public let signCount: UInt32
        /// The authenticator's AAGUID.
        public let aaguid: [UInt8]
        /// BE.
        public let backupEligible: Bool
        /// BS.
        public let backedUp: Bool
    }

    /// §7.1 steps 5–22 for `response`, against the challenge this ceremony issued. Whether the credential id is taken
    /// (step 22) is the caller's check, as it needs the store.
    public func verifyRegistration(_ response: PasskeyRegistrationResponse, challenge: [UInt8]) throws(PasskeyError) -> Registration {
        let clientData = try CollectedClientData(parsing: response.clientDataJSON)
        try check(clientData, type: "webauthn.create", challenge: challenge)
        let attestation = try AttestationObject(parsing: response.attestationObject)
        let authData = attestation.authenticatorData
        try check(authData)
        guard let credential = authData.attestedCredential else { throw .missingCredentialData }
        let key = try COSEPublicKey(cose: credential.publicKeyCOSE)
        try checkNoneAttestation(attestation)
        guard credential.credentialID.count <= 1023, credential.credentialID == response.credentialID else { throw .credentialIDMismatch }
        return Registration(credentialID: credential.credentialID, publicKeyCOSE: credential.publicKeyCOSE, algorithm: key.algorithm,
                            signCount: authData.signCount, aaguid: credential.aaguid,
                            backupEligible: authData.flags.backupEligible, backedUp: authData.flags.backedUp)
    }

    /// What a verified assertion yields, for the caller to record.
    public struct Assertion: Hashable, Sendable {
        /// The new signature counter.
        public let signCount: UInt32
        /// BS now.
        public let backedUp: Bool
    }

    /// §7.2 steps 7–21 for `response`, signed by the stored `credential`, against this ceremony's challenge.
    public func verifyAssertion(_ response: PasskeyAssertionResponse, challenge: [UInt8], credential: PasskeyCredential) throws(PasskeyError) -> Assertion {
        guard response.credentialID == credential.credentialID else { throw .credentialIDMismatch }
        guard let handle = response.userHandle, handle == credential.userHandle else { throw .userHandleMismatch }
        let key = try COSEPublicKey(cose: credential.publicKeyCOSE)
        let clientData = try CollectedClientData(parsing: response.clientDataJSON)
        try check(clientData, type: "webauthn.get", challenge: challenge)
        let authData = try AuthenticatorData(parsing: response.authenticatorData)
        try check(authData)
        let signed = response.authenticatorData + Array(SHA256.hash(data: response.clientDataJSON))
        guard key.isValidSignature(response.signature, for: signed) else { throw .badSignature }
        try checkCounter(stored: credential.signCount, received: authData.signCount)
        return Assertion(signCount: authData.signCount, backedUp: authData.flags.backedUp)
    }

    /// §7.1 steps 7–9, §7.2 steps 11–13: the ceremony type, the challenge (constant time), the origin, no cross-origin frame.
    func check(_ clientData: CollectedClientData, type: String, challenge: [UInt8]) throws(PasskeyError) {
        guard clientData.type == type else { throw .wrongType(clientData.type) }
        guard ConstantTime.equal(clientData.challenge, challenge) else { throw .unknownChallenge }
        guard relyingParty.origins.contains(clientData.origin) else { throw .originNotAllowed(clientData.origin) }
        guard !clientData.crossOrigin else { throw .crossOrigin }
    }

    /// §7.1 steps 13–16, §7.2 steps 15–17: the RP ID hash, UP, UV, and BS only with BE.
    func check(_ authData: AuthenticatorData) throws(PasskeyError) {
        let expected = Array(SHA256.hash(data: Array(relyingParty.id.utf8)))
        guard ConstantTime.equal(authData.rpIDHash, expected) else { throw .relyingPartyMismatch }
        guard authData.flags.userPresent else { throw .userNotPresent }
        guard authData.flags.userVerified else { throw .userNotVerified }
        guard authData.flags.backupEligible || !authData.flags.backedUp else { throw .inconsistentBackupFlags }
    }

    /// §7.1 steps 19–21: only `none` attestation, whose statement is an empty map.
    func checkNoneAttestation(_ attestation: AttestationObject) throws(PasskeyError) {
        guard attestation.format == "none" else { throw .unsupportedAttestation(attestation.format) }
        guard attestation.statement.mapEntries?.isEmpty == true else { throw .unsupportedAttestation("none with a statement") }
    }

    /// §7.2 step 21: when either counter is non-zero the new one must be greater, else the authenticator may be cloned.
    func checkCounter(stored: UInt32, received: UInt32) throws(PasskeyError) {
        guard stored != 0 || received != 0 else { return }
        guard received > stored else { throw .signCountNotIncreased(stored: stored, received: received) }
    }
}
