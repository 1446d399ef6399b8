import CareSyncCore
import Foundation
import Testing
@testable import CareSyncServer

/// Statistics of blood pressure's components over HTTP: each counts its standalone samples and its component
/// of the pairs, follows replaces and deletes, converts; the pair itself has no statistics (422).
@Suite(.serialized) struct BloodPressureStatisticsTests {
    static let day = "start=2020-06-18T00:00:00Z&end=2020-06-19T00:00:00Z&interval=day"

    func figures(_ server: TestServer, _ type: String, _ extra: String = "") async throws -> JSONValue? {
        let reply = try await server.send("GET", "/v1/patients/alice/statistics?type=\(type)&\(Self.day)&options=discreteAverage,discreteMin,discreteMax\(extra)",
                                          token: server.tokens.therapist)
        #expect(reply.status == 200, "\(reply.text)")
        return reply.json["buckets"]?[0]
    }

    @Test func bothComponentsCountPairsAndStandaloneSamplesUnderTheSyncRules() async throws {
        try await TestServer.with { server in
            let device = server.tokens.aliceDevice, samples = "/v1/patients/alice/samples"
            _ = try await server.send("POST", samples, token: device, json: ["samples": [
                Pressure.pair(120, 80, at: "08:00"), Pressure.pair(110, 70, at: "12:00", id: "cuff", version: 1),
                Pressure.component(.bloodPressureSystolic, 130, at: "18:00"), Pressure.component(.bloodPressureDiastolic, 90, at: "18:00"),
            ]])
            // Systolic 120, 110, 130; diastolic 80, 70, 90.
            var systolic = try await figures(server, "bloodPressureSystolic")
            #expect(systolic?["average"] == 120 && systolic?["min"] == 110 && systolic?["max"] == 130)
            var diastolic = try await figures(server, "bloodPressureDiastolic")
            #expect(diastolic?["average"] == 80 && diastolic?["min"] == 70 && diastolic?["max"] == 90)

            // Version 2 of the noon pair replaces both of its components.
            _ = try await server.send("POST", samples, token: device, json: ["samples": [Pressure.pair(140, 100, at: "12:00", id: "cuff", version: 2)]])
            systolic = try await figures(server, "bloodPressureSystolic")
            diastolic = try await figures(server, "bloodPressureDiastolic")
            #expect(systolic?["average"] == 130 && systolic?["max"] == 140 && diastolic?["average"] == 90 && diastolic?["max"] == 100)

            // Deleting it removes both.
            _ = try await server.send("POST", "\(samples)/delete", token: device, json: ["syncIdentifiers": ["cuff"]])
            systolic = try await figures(server, "bloodPressureSystolic")
            diastolic = try await figures(server, "bloodPressureDiastolic", "&unit=cmAq")
            #expect(systolic?["average"] == 125 && systolic?["min"] == 120)
            let average = diastolic?["average"]?.numberValue ?? .nan
            #expect(abs(average - Pressure.mmHg(85, in: "cmAq")) < 1e-9 && diastolic?["min"]?.numberValue.map { abs($0 - Pressure.mmHg(80, in: "cmAq")) < 1e-9 } == true)
        }
    }

    @Test func thePairItselfHasNoStatistics() async throws {
        try await TestServer.with { server in
            let reply = try await server.send("GET", "/v1/patients/alice/statistics?type=bloodPressure&\(Self.day)&options=discreteAverage",
                                              token: server.tokens.therapist)
            reply.expectProblem(422, "validationFailed")
            #expect(reply.json["errors"]?.arrayValue?.map { $0["field"] } == ["type"])
            let message = reply.json["errors"]?[0]?["message"]?.stringValue ?? ""
            #expect(message.contains("bloodPressureSystolic") && message.contains("bloodPressureDiastolic"), "\(message)")
        }
    }
}
