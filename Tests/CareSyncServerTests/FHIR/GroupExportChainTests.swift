import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// A Group export chain stays exact while the care team grows: a patient who joins between two exports arrives whole
/// in the next one (history written before the previous export included), the others bring only their changes since,
/// nothing comes twice, and a Group's membership mark is refused by a `Patient` export.
@Suite struct GroupExportChainTests {
    static func subjects(_ download: ExportDownload) -> [String] {
        download.observations.compactMap { $0["subject"]?["reference"]?.stringValue }
    }

    @Test(arguments: TestServer.Mode.allCases) func aPatientWhoJoinsBetweenExportsArrivesWhole(mode: TestServer.Mode) async throws {
        try await TestServer.with(mode) { server in
            let t = server.tokens, path = "/fhir/R4/Group/physio/$export"
            try await FHIREndpointTests.seed(server)
            let admin = server.app.api.admin
            _ = try admin.createPatient(id: "carol", timeZone: "UTC", now: Date())
            let carolDevice = try admin.createToken(TokenSpec(role: .device, patient: "carol", source: "org.example.carol"), now: Date()).secret
            // Carol's history, written before the first export, while she is in no team of the therapist.
            try await server.postSamples("carol", token: carolDevice,
                                         [FHIRFixtures.sample("bodyMass", 70, unit: "kg", minute: 1), FHIRFixtures.sample("bodyMass", 71, unit: "kg", minute: 2)])
            let first = try await server.export(path, token: t.therapist)
            #expect(Set(Self.subjects(first)) == ["Patient/alice"])
            let mark = try #require(first.nextSince)
            #expect(mark.contains("~"), "a Group's next _since carries its membership mark: \(mark)")
            try admin.addPatient("carol", toCareTeam: "physio")
            try await server.postSamples("alice", token: t.aliceDevice, [FHIRFixtures.sample("heartRate", 99, unit: "count/min", minute: 40)])
            let second = try await server.export(path + "?_since=" + mark, token: t.therapist)
            let subjects = Self.subjects(second)
            #expect(subjects.filter { $0 == "Patient/carol" }.count == 2, "carol's whole history: \(subjects)")
            #expect(subjects.filter { $0 == "Patient/alice" }.count == 1, "alice's one change since: \(subjects)")
            let third = try await server.export(path + "?_since=" + (second.nextSince ?? ""), token: t.therapist)
            #expect(third.observations.isEmpty && third.deletedIDs.isEmpty, "nothing twice")
            let patient = try await server.kickOff("/fhir/R4/Patient/alice/$export?_since=" + mark, token: t.therapist)
            #expect(patient.status == 400, "\(patient.text)")
        }
    }
}
