import CareSyncCore
import Foundation
import Testing

/// Care-team memberships on every store carry the order in which patients joined: increasing, one number per
/// membership, unchanged by adding a member again, and never given again after the member is erased or taken off.
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

    /// Taking a patient off a team ends exactly that membership, counts once in `careTeamLeaves` (what a server on the
    /// same file compares), and a patient who joins again gets a new, higher number.
    @Test(arguments: ContractEnrolmentStores.all)
    func aPatientTakenOffLeavesOnlyThatTeam(stores: ContractEnrolmentStores) throws {
        let access = try stores.make().access
        for id in ["p1", "p2"] { try access.createPatient(PatientRecord(id: id, timeZone: "UTC", createdAt: Self.now)) }
        for team in ["physio", "cardio"] { try access.createCareTeam(name: team, now: Self.now) }
        try access.addPatient("p1", toCareTeam: "physio")
        try access.addPatient("p2", toCareTeam: "physio")
        try access.addPatient("p1", toCareTeam: "cardio")
        let before = try #require(try access.careTeamMembers("physio"))
        #expect(try access.careTeamLeaves() == 0)
        #expect(try access.removePatient("p1", fromCareTeam: "physio") == true)
        #expect(try access.careTeamMembers("physio") == ["p2": before["p2"]!])
        #expect(try access.careTeamMembers("cardio")?.keys.sorted() == ["p1"], "the other team keeps the patient")
        #expect(try access.isPatient("p1", inAnyOf: ["physio"]) == false)
        #expect(try access.isPatient("p1", inAnyOf: ["physio", "cardio"]) == true)
        #expect(try access.careTeams().first { $0.name == "physio" }?.patients == ["p2"])
        #expect(try access.careTeamLeaves() == 1)
        #expect(try access.removePatient("p1", fromCareTeam: "physio") == false, "not on the team any more")
        #expect(try access.removePatient("nobody", fromCareTeam: "physio") == false)
        #expect(try access.careTeamLeaves() == 1, "only a membership that ended counts")
        #expect(throws: AccessStoreError.missing("care team gone")) { try access.removePatient("p1", fromCareTeam: "gone") }
        try access.addPatient("p1", toCareTeam: "physio")
        let again = try #require(try access.careTeamMembers("physio"))
        #expect(again["p1"]! > before.values.max()!, "joining again is a new membership")
    }
}
