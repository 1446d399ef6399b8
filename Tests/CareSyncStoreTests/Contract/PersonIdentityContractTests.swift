import CareSyncCore
import Foundation
import Testing

/// Provider identities on every store (`PersonIdentityStore`): an (issuer, subject) names one person, is linked to an
/// existing person only, lists per person oldest first, unlinks only for its person, and an invitation accepted through
/// a provider redeems and links in one transaction (an identity linked already leaves the invitation unused).
@Suite struct PersonIdentityContractTests {
    let now = Contract.t0
    let issuer = "https://login.clinic.example/tenant"

    func hash(_ byte: UInt8) -> [UInt8] { Array(repeating: byte, count: 32) }

    func person(_ access: any AccessStore, _ id: String, _ byte: UInt8) throws -> PersonRecord {
        try access.insertInvitation(InvitationRecord(id: "i-\(id)", secretHash: hash(byte), role: .admin, careTeams: [], displayName: id,
                                                     personID: nil, createdAt: now, expiresAt: now.addingTimeInterval(3600)))
        return try #require(try access.redeemInvitation(secretHash: hash(byte), newPersonID: id, now: now))
    }

    func identity(_ subject: String, _ person: String, at seconds: TimeInterval = 0) -> PersonIdentity {
        PersonIdentity(issuer: issuer, subject: subject, personID: person, createdAt: now.addingTimeInterval(seconds))
    }

    @Test(arguments: ContractStores.pairs)
    func anIdentityNamesOnePerson(_ factory: ContractStorePair) throws {
        let access = try factory.make().access
        _ = try person(access, "p1", 1)
        _ = try person(access, "p2", 2)
        try access.linkIdentity(identity("sub-a", "p1", at: 2))
        try access.linkIdentity(identity("sub-b", "p1", at: 1))
        #expect(throws: AccessStoreError.alreadyExists("identity")) { try access.linkIdentity(identity("sub-a", "p2")) }
        #expect(throws: AccessStoreError.missing("person p9")) { try access.linkIdentity(identity("sub-c", "p9")) }
        #expect(try access.identity(issuer: issuer, subject: "sub-a") == identity("sub-a", "p1", at: 2))
        #expect(try access.identity(issuer: issuer + "/", subject: "sub-a") == nil)
        #expect(try access.identity(issuer: issuer, subject: "SUB-A") == nil)
        #expect(try access.identities(person: "p1") == [identity("sub-b", "p1", at: 1), identity("sub-a", "p1", at: 2)])
        #expect(try access.identities(person: "p2").isEmpty)
    }

    @Test(arguments: ContractStores.pairs)
    func onlyItsPersonUnlinksAnIdentity(_ factory: ContractStorePair) throws {
        let access = try factory.make().access
        _ = try person(access, "p1", 1)
        _ = try person(access, "p2", 2)
        try access.linkIdentity(identity("sub-a", "p1"))
        #expect(try access.unlinkIdentity(issuer: issuer, subject: "sub-a", person: "p2") == false)
        #expect(try access.identity(issuer: issuer, subject: "sub-a") != nil)
        #expect(try access.unlinkIdentity(issuer: issuer, subject: "sub-a", person: "p1"))
        #expect(try access.unlinkIdentity(issuer: issuer, subject: "sub-a", person: "p1") == false)
        #expect(try access.identity(issuer: issuer, subject: "sub-a") == nil)
        try access.linkIdentity(identity("sub-a", "p2"))
        #expect(try access.identity(issuer: issuer, subject: "sub-a")?.personID == "p2")
    }

    @Test(arguments: ContractStores.pairs)
    func anInvitationAcceptedThroughTheProviderRedeemsAndLinksOnce(_ factory: ContractStorePair) throws {
        let access = try factory.make().access
        try access.insertInvitation(InvitationRecord(id: "i1", secretHash: hash(7), role: .therapist, careTeams: [], displayName: "Theo",
                                                     personID: nil, createdAt: now, expiresAt: now.addingTimeInterval(3600)))
        #expect(try access.redeemInvitation(secretHash: hash(8), newPersonID: "p1", linking: issuer, subject: "sub-a", now: now) == nil)
        #expect(try access.identity(issuer: issuer, subject: "sub-a") == nil)
        let theo = try #require(try access.redeemInvitation(secretHash: hash(7), newPersonID: "p1", linking: issuer, subject: "sub-a", now: now))
        #expect(theo.id == "p1")
        #expect(try access.identity(issuer: issuer, subject: "sub-a") == identity("sub-a", "p1"))
        #expect(try access.redeemInvitation(secretHash: hash(7), newPersonID: "p2", linking: issuer, subject: "sub-b", now: now) == nil)
        #expect(try access.identity(issuer: issuer, subject: "sub-b") == nil)
    }

    @Test(arguments: ContractStores.pairs)
    func anIdentityLinkedAlreadyLeavesTheInvitationUnused(_ factory: ContractStorePair) throws {
        let access = try factory.make().access
        _ = try person(access, "p1", 1)
        try access.linkIdentity(identity("sub-a", "p1"))
        try access.insertInvitation(InvitationRecord(id: "i2", secretHash: hash(2), role: .admin, careTeams: [], displayName: "",
                                                     personID: nil, createdAt: now, expiresAt: now.addingTimeInterval(3600)))
        #expect(throws: AccessStoreError.alreadyExists("identity")) {
            try access.redeemInvitation(secretHash: hash(2), newPersonID: "p2", linking: issuer, subject: "sub-a", now: now)
        }
        #expect(try access.invitations().first { $0.id == "i2" }?.redeemedAt == nil)
        #expect(try access.person(id: "p2") == nil)
        #expect(try access.identity(issuer: issuer, subject: "sub-a")?.personID == "p1")
    }
}
