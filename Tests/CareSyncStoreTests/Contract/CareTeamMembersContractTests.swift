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
        #expect(try access.removePatient("p1", fromCareTeam: "physio", at: Date()) == true)
        #expect(try access.careTeamMembers("physio") == ["p2": before["p2"]!])
        #expect(try access.careTeamMembers("cardio")?.keys.sorted() == ["p1"], "the other team keeps the patient")
        #expect(try access.isPatient("p1", inAnyOf: ["physio"]) == false)
        #expect(try access.isPatient("p1", inAnyOf: ["physio", "cardio"]) == true)
        #expect(try access.careTeams().first { $0.name == "physio" }?.patients == ["p2"])
        #expect(try access.careTeamLeaves() == 1)
        #expect(try access.removePatient("p1", fromCareTeam: "physio", at: Date()) == false, "not on the team any more")
        #expect(try access.removePatient("nobody", fromCareTeam: "physio", at: Date()) == false)
        #expect(try access.careTeamLeaves() == 1, "only a membership that ended counts")
        #expect(throws: AccessStoreError.missing("care team gone")) { try access.removePatient("p1", fromCareTeam: "gone", at: Date()) }
        try access.addPatient("p1", toCareTeam: "physio")
        let again = try #require(try access.careTeamMembers("physio"))
        #expect(again["p1"]! > before.values.max()!, "joining again is a new membership")
    }

    /// Each removal keeps when the patient left that team, to the millisecond: the last departure only, per team; a
    /// removal that ended nothing keeps nothing; joining again leaves the departure for the worksheet to compare.
    @Test(arguments: ContractEnrolmentStores.all)
    func aDepartureIsKeptPerTeamWithItsLatestTime(stores: ContractEnrolmentStores) throws {
        let access = try stores.make().access
        for id in ["p1", "p2"] { try access.createPatient(PatientRecord(id: id, timeZone: "UTC", createdAt: Self.now)) }
        for team in ["physio", "cardio"] { try access.createCareTeam(name: team, now: Self.now) }
        for id in ["p1", "p2"] { try access.addPatient(id, toCareTeam: "physio") }
        try access.addPatient("p1", toCareTeam: "cardio")
        #expect(try access.careTeamDepartures("physio") == [:])
        let first = SyncRules.date(milliseconds: 1_700_086_400_123), second = SyncRules.date(milliseconds: 1_700_086_460_123)
        #expect(try access.removePatient("p1", fromCareTeam: "physio", at: first))
        #expect(try access.removePatient("p2", fromCareTeam: "physio", at: second) == true)
        #expect(try access.removePatient("p1", fromCareTeam: "physio", at: second) == false)
        #expect(try access.careTeamDepartures("physio") == ["p1": first, "p2": second])
        #expect(try access.careTeamDepartures("cardio") == [:], "the other team keeps the patient")
        #expect(try access.careTeamDepartures("nobody") == [:])
        try access.addPatient("p1", toCareTeam: "physio")
        #expect(try access.careTeamDepartures("physio")["p1"] == first, "joining again keeps the last departure")
        let later = SyncRules.date(milliseconds: 1_700_691_200_456)
        #expect(try access.removePatient("p1", fromCareTeam: "physio", at: later))
        #expect(try access.careTeamDepartures("physio")["p1"] == later, "a later departure replaces it")
    }
}
