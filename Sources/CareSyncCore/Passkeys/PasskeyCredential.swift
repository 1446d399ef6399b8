import Foundation

/// A registered passkey: the credential's public key and what the server keeps up to date about it.
public struct PasskeyCredential: Hashable, Sendable {
    /// The credential id the authenticator chose (1–1023 bytes); unique across every person.
    public let credentialID: [UInt8]
    /// The person it signs in (the people model's id).
    public let personID: String
    /// The WebAuthn `user.id` registered with it: random, the same for all of a person's passkeys.
    public let userHandle: [UInt8]
    /// The COSE_Key bytes as the authenticator sent them.
    public let publicKeyCOSE: [UInt8]
    /// The COSE algorithm (-7 ES256, -257 RS256).
    public let algorithm: Int64
    /// The last signature counter seen.
    public var signCount: UInt32
    /// The authenticator model's AAGUID (16 bytes).
    public let aaguid: [UInt8]
    /// BE at registration: the credential may be synced to other devices.
    public let backupEligible: Bool
    /// BS at the last ceremony: the credential is backed up.
    public var backedUp: Bool
    /// The name its owner gave it, e.g. "MacBook Touch ID".
    public let name: String
    /// When it was registered.
    public let createdAt: Date
    /// When it last signed in, nil until then.
    public var lastUsedAt: Date?

    /// A credential record.
    public init(credentialID: [UInt8], personID: String, userHandle: [UInt8], publicKeyCOSE: [UInt8], algorithm: Int64,
                signCount: UInt32, aaguid: [UInt8], backupEligible: Bool, backedUp: Bool, name: String,
                createdAt: Date, lastUsedAt: Date? = nil) {
        self.credentialID = credentialID
        self.personID = personID
        self.userHandle = userHandle
        self.publicKeyCOSE = publicKeyCOSE
        self.algorithm = algorithm
        self.signCount = signCount
        self.aaguid = aaguid
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// Why a passkey-store write was refused.
public enum PasskeyStoreError: Error, Hashable, Sendable {
    /// A credential with this id is stored already.
    case alreadyExists
}

/// Registered passkeys. Methods are blocking and thread-safe; times are kept to the millisecond.
public protocol PasskeyStore: Sendable {
    /// Stores a new credential; `PasskeyStoreError.alreadyExists` when its id is taken (by anyone).
    func insertPasskey(_ credential: PasskeyCredential) throws
    /// The credential with this id, or nil.
    func passkey(credentialID: [UInt8]) throws -> PasskeyCredential?
    /// A person's credentials, oldest first.
    func passkeys(person: String) throws -> [PasskeyCredential]
    /// Records a sign-in: sets the counter, the backup state and the time, but only while the stored counter is still
    /// `expectedSignCount` (compare-and-set: of two sign-ins racing with one counter value, one wins). False otherwise
    /// or when there is no such credential.
    func recordPasskeyUse(credentialID: [UInt8], expectedSignCount: UInt32, signCount: UInt32, backedUp: Bool, at: Date) throws -> Bool
    /// Removes one of `person`'s credentials; false when that person has none with this id.
    func deletePasskey(credentialID: [UInt8], person: String) throws -> Bool
}
