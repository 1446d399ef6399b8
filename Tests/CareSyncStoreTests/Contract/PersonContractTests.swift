import CareSyncCore
import Foundation
import Testing

/// People, invitations and sessions on every store (`PersonStore`): an invitation redeems once and not after its
/// expiry, a re-invitation signs its existing person in, deactivation ends every session in the same transaction,
/// sessions are found by their secret's hash, touched, ended and listed newest first.
@Suite struct PersonContractTests {
    let now = Contract.t0

    func hash(_ byte: UInt8) -> [UInt8] { Array(repeating: byte, count: 32) }

    func invitation(_ id: String, _ byte: UInt8, role: Role = .therapist, teams: [String] = ["physio"], person: String? = nil,
                    lifetime: TimeInterval = 3600) -> InvitationRecord {
        InvitationRecord(id: id, secretHash: hash(byte), role: role, careTeams: teams, displayName: "Dana \(id)", personID: person,
                         createdAt: now, expiresAt: now.addingTimeInterval(lifetime))
    }

    func session(_ id: String, _ byte: UInt8, person: String, at time: Date? = nil) -> SessionRecord {
        let start = time ?? now
        return SessionRecord(id: id, secretHash: hash(byte), personID: person, createdAt: start, lastUsedAt: start,
                             expiresAt: start.addingTimeInterval(12 * 3600))
    }

    @Test(arguments: ContractStores.pairs)
    func anInvitationRedeemsOnceIntoItsPerson(_ factory: ContractStorePair) throws {
        let access = try factory.make().access
        try access.insertInvitation(invitation("i1", 1, teams: ["physio", "cardio"]))
        #expect(throws: AccessStoreError.self) { try access.insertInvitation(invitation("i1", 9)) }
        #expect(try access.redeemInvitation(secretHash: hash(2), newPersonID: "p1", now: now) == nil)
        let person = try #require(try access.redeemInvitation(secretHash: hash(1), newPersonID: "p1", now: now.addingTimeInterval(5)))
        #expect(person == PersonRecord(id: "p1", role: .therapist, careTeams: ["cardio", "physio"], displayName: "Dana i1",
                                       createdAt: now.addingTimeInterval(5)))
        #expect(try access.redeemInvitation(secretHash: hash(1), newPersonID: "p2", now: now.addingTimeInterval(6)) == nil)
        #expect(try access.people() == [person])
        #expect(try access.person(id: "p1") == person)
        #expect(try access.invitations().first?.redeemedAt == now.addingTimeInterval(5))
    }

    @Test(arguments: ContractStores.pairs)
    func anExpiredInvitationChangesNothing(_ factory: ContractStorePair) throws {
        let access = try factory.make().access
        try access.insertInvitation(invitation("i1", 1, lifetime: 60))
        #expect(try access.redeemInvitation(secretHash: hash(1), newPersonID: "p1", now: now.addingTimeInterval(60)) == nil)
        #expect(try access.people().isEmpty)
        #expect(try access.invitations().first?.redeemedAt == nil)
    }

    @Test(arguments: ContractStores.pairs)
    func aReinvitationSignsTheSamePersonInUnlessDeactivated(_ factory: ContractStorePair) throws {
        let access = try factory.make().access
        try access.insertInvitation(invitation("i1", 1, role: .admin, teams: []))
        let admin = try #require(try access.redeemInvitation(secretHash: hash(1), newPersonID: "p1", now: now))
        try access.insertInvitation(invitation("i2", 2, role: .admin, teams: [], person: "p1"))
        #expect(try access.redeemInvitation(secretHash: hash(2), newPersonID: "p9", now: now) == admin)
        #expect(try access.people().count == 1)
        try access.insertInvitation(invitation("i3", 3, role: .admin, teams: [], person: "p1"))
        #expect(try access.deactivatePerson(id: "p1", at: now))
        #expect(try access.redeemInvitation(secretHash: hash(3), newPersonID: "p9", now: now) == nil)
    }

    @Test(arguments: ContractStores.pairs)
    func sessionsAreFoundTouchedEndedAndEndedAllByDeactivation(_ factory: ContractStorePair) throws {
        let access = try factory.make().access
        #expect(throws: AccessStoreError.self) { try access.insertSession(session("s0", 10, person: "nobody")) }
        try access.insertInvitation(invitation("i1", 1))
        _ = try access.redeemInvitation(secretHash: hash(1), newPersonID: "p1", now: now)
        let first = session("s1", 11, person: "p1"), second = session("s2", 12, person: "p1", at: now.addingTimeInterval(10))
        try access.insertSession(first)
        try access.insertSession(second)
        #expect(throws: AccessStoreError.self) { try access.insertSession(session("s1", 13, person: "p1")) }
        #expect(try access.session(secretHash: hash(11)) == first)
        #expect(try access.session(secretHash: hash(99)) == nil)
        #expect(try access.sessions(person: "p1").map(\.id) == ["s2", "s1"])
        try access.touchSession(id: "s1", at: now.addingTimeInterval(120))
        try access.touchSession(id: "s1", at: now.addingTimeInterval(60))  // never backwards
        #expect(try access.session(id: "s1")?.lastUsedAt == now.addingTimeInterval(120))
        #expect(try access.endSession(id: "s1", at: now.addingTimeInterval(200)))
        #expect(try access.endSession(id: "s1", at: now.addingTimeInterval(300)))
        #expect(try access.session(id: "s1")?.endedAt == now.addingTimeInterval(200))
        #expect(try !access.endSession(id: "nope", at: now))
        #expect(try access.deactivatePerson(id: "p1", at: now.addingTimeInterval(400)))
        #expect(try access.session(id: "s2")?.endedAt == now.addingTimeInterval(400))
        #expect(try access.session(id: "s1")?.endedAt == now.addingTimeInterval(200))
        #expect(try access.person(id: "p1")?.deactivatedAt == now.addingTimeInterval(400))
        #expect(try !access.deactivatePerson(id: "nobody", at: now))
    }
}
