import Foundation
import CareSyncCore

/// Provider identities in memory: the reference the database stores are held to.
extension InMemoryAccessStore {
    public func linkIdentity(_ identity: PersonIdentity) throws {
        try peopleState.withLock { s in try Self.link(&s, identity) }
    }

    public func identity(issuer: String, subject: String) throws -> PersonIdentity? {
        peopleState.withLock { s in s.identities.first { $0.issuer == issuer && $0.subject == subject } }
    }

    public func identities(person: String) throws -> [PersonIdentity] {
        peopleState.withLock { s in
            s.identities.filter { $0.personID == person }
                .sorted { ($0.createdAt, $0.issuer, $0.subject) < ($1.createdAt, $1.issuer, $1.subject) }
        }
    }

    public func unlinkIdentity(issuer: String, subject: String, person: String) throws -> Bool {
        peopleState.withLock { s in
            guard let index = s.identities.firstIndex(where: { $0.issuer == issuer && $0.subject == subject && $0.personID == person })
            else { return false }
            s.identities.remove(at: index)
            return true
        }
    }

    public func redeemInvitation(secretHash: [UInt8], newPersonID: String, linking issuer: String, subject: String,
                                 now: Date) throws -> PersonRecord? {
        try peopleState.withLock { s in
            guard !s.identities.contains(where: { $0.issuer == issuer && $0.subject == subject }) else {
                throw AccessStoreError.alreadyExists("identity")
            }
            var draft = s
            guard let person = try Self.redeem(&draft, secretHash: secretHash, newPersonID: newPersonID, now: now) else { return nil }
            try Self.link(&draft, PersonIdentity(issuer: issuer, subject: subject, personID: person.id, createdAt: now))
            s = draft
            return person
        }
    }

    /// Links in `s` (the caller holds the lock).
    private static func link(_ s: inout PeopleState, _ identity: PersonIdentity) throws {
        guard s.people[identity.personID] != nil else { throw AccessStoreError.missing("person \(identity.personID)") }
        guard !s.identities.contains(where: { $0.issuer == identity.issuer && $0.subject == identity.subject }) else {
            throw AccessStoreError.alreadyExists("identity")
        }
        s.identities.append(identity)
    }
}
