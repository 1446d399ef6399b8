import Foundation

/// A person's identity at an OpenID Connect provider: the provider's issuer and its stable subject id (`iss` + `sub`
/// of an ID token) name one CareSync person. Linked by an admin, or when the person accepts an invitation through
/// the provider; never created from an unknown identity.
public struct PersonIdentity: Hashable, Sendable {
    /// The provider's issuer URL, exactly as its ID tokens carry it.
    public var issuer: String
    /// The provider's subject id of the person (opaque, at most 255 characters).
    public var subject: String
    /// The CareSync person it signs in.
    public var personID: String
    /// When it was linked.
    public var createdAt: Date

    /// An identity record.
    public init(issuer: String, subject: String, personID: String, createdAt: Date) {
        self.issuer = issuer; self.subject = subject; self.personID = personID; self.createdAt = createdAt
    }
}

/// Provider identities of people (`person_identities`). Methods are blocking and thread-safe.
public protocol PersonIdentityStore: Sendable {
    /// Links an identity; `alreadyExists` when (issuer, subject) is linked to anyone, `missing` when the person does not exist.
    func linkIdentity(_ identity: PersonIdentity) throws
    /// The identity (issuer, subject) names, or nil.
    func identity(issuer: String, subject: String) throws -> PersonIdentity?
    /// Every identity of a person, oldest first.
    func identities(person: String) throws -> [PersonIdentity]
    /// Removes an identity of `person`; false when it is not theirs or does not exist.
    func unlinkIdentity(issuer: String, subject: String, person: String) throws -> Bool
    /// Redeems an invitation as `redeemInvitation(secretHash:newPersonID:now:)` does and links (issuer, subject) to its
    /// person, in one transaction: nil with nothing changed when the invitation is not redeemable; `alreadyExists`,
    /// with nothing changed, when the identity is linked already.
    func redeemInvitation(secretHash: [UInt8], newPersonID: String, linking issuer: String, subject: String,
                          now: Date) throws -> PersonRecord?
}
