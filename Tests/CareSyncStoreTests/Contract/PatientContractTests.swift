import CareSyncCore
import Foundation
import Testing

/// Patients on every store: the display name is kept from creation, and an update changes the time zone and display
/// name of that one patient only, never its id or creation time.
struct PatientContractTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test(arguments: ContractEnrolmentStores.all)
    func aPatientKeepsItsDisplayNameAndAnUpdateChangesOnlyThatPatient(stores: ContractEnrolmentStores) throws {
        let access = try stores.make().access
        try access.createPatient(PatientRecord(id: "p1", timeZone: "UTC", createdAt: Self.now, displayName: "Ada Ö."))
        try access.createPatient(PatientRecord(id: "p2", timeZone: "Europe/Berlin", createdAt: Self.now))
        #expect(try access.patient(id: "p1")?.displayName == "Ada Ö.")
        #expect(try access.patient(id: "p2")?.displayName == "")
        let updated = try access.updatePatient(id: "p1", timeZone: "America/Los_Angeles", displayName: "Ada Lovelace")
        let expected = PatientRecord(id: "p1", timeZone: "America/Los_Angeles", createdAt: Self.now, displayName: "Ada Lovelace")
        #expect(updated == expected)
        #expect(try access.patients() == [expected, PatientRecord(id: "p2", timeZone: "Europe/Berlin", createdAt: Self.now)])
        #expect(try access.updatePatient(id: "nobody", timeZone: "UTC", displayName: "") == nil)
        #expect(try access.patient(id: "nobody") == nil)
    }
}
