import Foundation
import Testing
@testable import CareSyncServer

/// A weekly report is read by its identifier and its source: the caller's own first, `source=` when named, the
/// only one when one source has it, 409 when several do; no writer shadows another's (issue 25, item 7).
@Suite(.serialized) struct ReportReadBySourceTests {
    static let path = "/v1/patients/alice/weekly-reports/report-2020-W25"

    @Test func aDeviceCannotShadowATherapistsReport() async throws {
        try await TestServer.with { server in
            let t = server.tokens
            let mine = try await server.send("POST", "/v1/patients/alice/weekly-reports", token: t.therapist,
                                             json: Fixtures.report(version: 1, tests: [("2020-06-18", 450)]))
            #expect(mine.status == 200, "\(mine.text)")
            // A reader with none of its own gets the only source's.
            let only = try await server.send("GET", Self.path, token: t.aliceDevice)
            #expect(only.status == 200 && only.json["source"] == "org.example.therapist", "\(only.text)")
            let squat = try await server.send("POST", "/v1/patients/alice/weekly-reports", token: t.aliceDevice,
                                              json: Fixtures.report(version: 0, tests: [("2020-06-18", 1_999)]))
            #expect(squat.status == 200, "\(squat.text)")

            let therapist = try await server.send("GET", Self.path, token: t.therapist)
            #expect(therapist.status == 200 && therapist.json["syncVersion"] == 1, "\(therapist.text)")
            #expect(therapist.json["source"] == "org.example.therapist" && !therapist.text.contains("1999"), "\(therapist.text)")
            let device = try await server.send("GET", Self.path, token: t.aliceDevice)
            #expect(device.json["syncVersion"] == 0 && device.json["source"] == "org.example.phone.alice", "\(device.text)")

            // A reader with none of its own: several sources have one, so it must name one.
            let narrow = try await server.send("GET", Self.path, token: t.narrow)
            narrow.expectProblem(409, "conflict")
            let named = try await server.send("GET", "\(Self.path)?source=org.example.therapist", token: t.narrow)
            #expect(named.status == 200 && named.json["syncVersion"] == 1, "\(named.text)")
            let other = try await server.send("GET", "\(Self.path)?source=org.example.phone.alice", token: t.therapist)
            #expect(other.json["syncVersion"] == 0, "\(other.text)")
            let nobody = try await server.send("GET", "\(Self.path)?source=org.example.nobody", token: t.therapist)
            nobody.expectProblem(404, "notFound")
            let bad = try await server.send("GET", "\(Self.path)?source=org.example%00therapist", token: t.therapist)
            bad.expectProblem(422, "validationFailed")
            #expect(bad.json["errors"]?[0]?["field"] == "source")
        }
    }
}
