/// Authenticator data (WebAuthn §6.1): the RP ID hash, flags, signature counter, and at registration the attested
/// credential data. Parsed from untrusted bytes; every length is checked and nothing may follow the declared parts.
public struct AuthenticatorData: Hashable, Sendable {
    /// SHA-256 of the RP ID the authenticator scoped the credential to.
    public let rpIDHash: [UInt8]
    /// The flags byte.
    public let flags: Flags
    /// The signature counter (0 when the authenticator keeps none).
    public let signCount: UInt32
    /// Present when `flags.attestedCredentialData` is set.
    public let attestedCredential: AttestedCredentialData?
    /// The bytes as received: signatures cover them.
    public let raw: [UInt8]

    /// The flags byte (§6.1): bit 0 UP, 2 UV, 3 BE, 4 BS, 6 AT, 7 ED.
    public struct Flags: Hashable, Sendable {
        /// The byte.
        public let rawValue: UInt8
        /// UP: the user was present.
        public var userPresent: Bool { rawValue & 0x01 != 0 }
        /// UV: the user was verified (PIN, biometrics).
        public var userVerified: Bool { rawValue & 0x04 != 0 }
        /// BE: the credential may be backed up (synced passkey).
        public var backupEligible: Bool { rawValue & 0x08 != 0 }
        /// BS: the credential is backed up now.
        public var backedUp: Bool { rawValue & 0x10 != 0 }
        /// AT: attested credential data follows.
        public var attestedCredentialData: Bool { rawValue & 0x40 != 0 }
        /// ED: an extensions map follows.
        public var extensionData: Bool { rawValue & 0x80 != 0 }
    }

    /// The credential an authenticator made (§6.5.1).
    public struct AttestedCredentialData: Hashable, Sendable {
        /// The authenticator model's AAGUID (16 bytes; zeros under `none` attestation from many authenticators).
        public let aaguid: [UInt8]
        /// The credential id.
        public let credentialID: [UInt8]
        /// The COSE_Key bytes exactly as the authenticator sent them.
        public let publicKeyCOSE: [UInt8]
    }

    /// Parses `raw`.
    public init(parsing raw: [UInt8]) throws(PasskeyError) {
        guard raw.count >= 37 else { throw .malformed("authenticator data is shorter than 37 bytes") }
        rpIDHash = Array(raw[0..<32])
        flags = Flags(rawValue: raw[32])
        signCount = raw[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags.attestedCredentialData {
            guard raw.count >= offset + 18 else { throw .malformed("attested credential data is truncated") }
            let aaguid = Array(raw[offset..<(offset + 16)])
            let idLength = Int(raw[offset + 16]) << 8 | Int(raw[offset + 17])
            offset += 18
            guard raw.count >= offset + idLength else { throw .malformed("the credential id is truncated") }
            let credentialID = Array(raw[offset..<(offset + idLength)])
            offset += idLength
            let keyEnd = try Self.skipItem(raw, from: offset, what: "credential public key")
            attestedCredential = AttestedCredentialData(aaguid: aaguid, credentialID: credentialID,
                                                        publicKeyCOSE: Array(raw[offset..<keyEnd]))
            offset = keyEnd
        } else {
            attestedCredential = nil
        }
        if flags.extensionData { offset = try Self.skipItem(raw, from: offset, what: "extensions") }
        guard offset == raw.count else { throw .malformed("authenticator data has bytes after its declared parts") }
        self.raw = raw
    }

    /// The end of the CBOR item at `offset`, which must be a map.
    private static func skipItem(_ raw: [UInt8], from offset: Int, what: String) throws(PasskeyError) -> Int {
        do {
            let (value, end) = try CBORDecoder().decodePrefix(raw, from: offset)
            guard value.mapEntries != nil else { throw PasskeyError.malformed("the \(what) is not a CBOR map") }
            return end
        } catch let error as PasskeyError {
            throw error
        } catch {
            throw .malformed("the \(what) is not valid CBOR")
        }
    }
}
