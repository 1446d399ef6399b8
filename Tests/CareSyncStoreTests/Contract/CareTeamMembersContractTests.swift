import CareSyncCore
import Foundation
import Testing

/// Care-team memberships on every store carry the order in which patients joined: increasing, one number per
/// membership, unchanged by adding a member again, and never given again after the member is erased.
struct CareTeamMembersContractTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(arguments: ContractEnrolmentStores.all)
    func aLaterMemberHasAHigherNumber(stores: ContractEnrolmentStores) throws {
        let access = try stores.make().access
        for id in ["p1", "p2", "p3"] { try access.createPatient(PatientRecord(id: id, timeZone: "UTC", createdAt: Self.now)) }
        try access.createCareTeam(name: "physio", now: Self.now)
        try access.createCareTeam(name: "cardio", now: Self.now)
        #expect(try access.careTeamMembers("physio") == [:])
        #expect(try access.careTeamMembers("nobody") == nil)
        try access.addPatient("p2", toCareTeam: "physio")
        try access.addPatient("p1", toCareTeam: "cardio")
        try access.addPatient("p1", toCareTeam: "physio")
        let first = try #require(try access.careTeamMembers("physio"))
        #expect(first.keys.sorted() == ["p1", "p2"])
        #expect(first["p2"]! < first["p1"]!, "p2 joined first")
        try access.addPatient("p2", toCareTeam: "physio")
        #expect(try access.careTeamMembers("physio") == first, "adding again changes nothing")
        try access.addPatient("p3", toCareTeam: "physio")
        let second = try #require(try access.careTeamMembers("physio"))
        #expect(second["p3"]! > first.values.max()!)
        #expect(try access.careTeamMembers("cardio")?.keys.sorted() == ["p1"])
    }
}
