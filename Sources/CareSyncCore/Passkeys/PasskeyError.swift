/// Why a passkey ceremony was refused. Each case is one check of WebAuthn Level 2 §7.1 (registration) or §7.2
/// (authentication); `code` is a stable name an endpoint can put in its problem (all are the client's fault: 4xx).
public enum PasskeyError: Error, Hashable, Sendable {
    /// The browser's response is not the JSON, base64url, CBOR or binary layout WebAuthn defines; the text says where.
    case malformed(String)
    /// The challenge is unknown: never issued, already used, or issued for the other ceremony.
    case unknownChallenge
    /// The challenge was issued but its lifetime is over.
    case expiredChallenge
    /// Too many ceremonies are pending on this server; try again later.
    case tooManyPendingCeremonies
    /// `clientDataJSON.type` is not the ceremony's (`webauthn.create` / `webauthn.get`).
    case wrongType(String)
    /// `clientDataJSON.origin` is not one of the configured origins.
    case originNotAllowed(String)
    /// `clientDataJSON.crossOrigin` is true: the ceremony ran in a cross-origin frame.
    case crossOrigin
    /// `rpIdHash` is not SHA-256 of the configured relying-party id.
    case relyingPartyMismatch
    /// The user-present flag (UP) is not set.
    case userNotPresent
    /// The user-verified flag (UV) is not set; CareSync requires user verification.
    case userNotVerified
    /// Backup state (BS) is set while backup eligibility (BE) is not.
    case inconsistentBackupFlags
    /// Registration data carries no attested credential data (AT not set).
    case missingCredentialData
    /// An attestation format other than `none`, or `none` with a non-empty statement.
    case unsupportedAttestation(String)
    /// A COSE key type or algorithm CareSync does not accept (ES256 and RS256 are accepted).
    case unsupportedAlgorithm(Int64)
    /// The COSE key is not a valid key of its declared type (wrong curve, point not on it, short modulus…).
    case invalidPublicKey(String)
    /// The credential id in the response differs from the one in the authenticator data, or is over 1023 bytes.
    case credentialIDMismatch
    /// A credential with this id is registered already (to anyone).
    case credentialAlreadyRegistered
    /// No registered credential has this id (removed, or never registered here).
    case unknownCredential
    /// The response's user handle is missing or not the credential's.
    case userHandleMismatch
    /// The signature does not verify over authenticatorData ‖ SHA-256(clientDataJSON).
    case badSignature
    /// The signature counter did not increase although one of the counters is non-zero: a possible cloned authenticator.
    case signCountNotIncreased(stored: UInt32, received: UInt32)

    /// A stable machine-readable name for problems and logs.
    public var code: String {
        switch self {
        case .malformed: "malformed-response"
        case .unknownChallenge: "unknown-challenge"
        case .expiredChallenge: "expired-challenge"
        case .tooManyPendingCeremonies: "too-many-pending-ceremonies"
        case .wrongType: "wrong-ceremony-type"
        case .originNotAllowed: "origin-not-allowed"
        case .crossOrigin: "cross-origin"
        case .relyingPartyMismatch: "rp-id-mismatch"
        case .userNotPresent: "user-not-present"
        case .userNotVerified: "user-not-verified"
        case .inconsistentBackupFlags: "inconsistent-backup-flags"
        case .missingCredentialData: "missing-credential-data"
        case .unsupportedAttestation: "unsupported-attestation"
        case .unsupportedAlgorithm: "unsupported-algorithm"
        case .invalidPublicKey: "invalid-public-key"
        case .credentialIDMismatch: "credential-id-mismatch"
        case .credentialAlreadyRegistered: "credential-already-registered"
        case .unknownCredential: "unknown-credential"
        case .userHandleMismatch: "user-handle-mismatch"
        case .badSignature: "bad-signature"
        case .signCountNotIncreased: "possible-cloned-authenticator"
        }
    }
}
