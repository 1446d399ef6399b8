import CareSyncCore
import Foundation
import Testing
@testable import CareSyncServer

/// Blood pressure over HTTP under the sync rules: the pair is posted, replaced, ignored, deleted and fed as
/// one object; a half pair, a pair in a unit of another dimension or components on another type are 422.
@Suite(.serialized) struct BloodPressureSyncTests {
    let samples = "/v1/patients/alice/samples"
    let changes = "/v1/patients/alice/changes"

    @Test func postReplaceIgnoreDeleteAndFeedTheirPair() async throws {
        try await TestServer.with { server in
            let device = server.tokens.aliceDevice
            let v1 = try await server.send("POST", samples, token: device, json: ["samples": [Pressure.pair(120, 80, id: "cuff-1", version: 1)]])
            #expect(v1.status == 200, "\(v1.text)")
            #expect(v1.json["results"]?[0]?["outcome"] == "inserted")
            let first = try #require(v1.json["results"]?[0]?["uuid"]?.stringValue)

            let feed = try await server.send("GET", changes, token: device)
            let items = feed.json["samples"]?.arrayValue ?? []
            #expect(items.count == 1)
            let item = try #require(items.first?.objectValue)
            #expect(Set(item.keys) == ["uuid", "type", "unit", "value", "components", "start", "end", "syncIdentifier",
                                       "syncVersion", "source", "metadata"])
            #expect(item["uuid"] == .string(first) && item["type"] == "bloodPressure" && item["unit"] == "mmHg")
            #expect(item["components"] == ["bloodPressureSystolic": 120, "bloodPressureDiastolic": 80])
            #expect(item["value"] == 120)  // the first component, for readers of single values
            let anchor = try #require(feed.json["anchor"]?.stringValue)

            // Version 2, in cmAq: the pair is replaced as a whole (one tombstone, one new sample).
            let systolic = Pressure.mmHg(118, in: "cmAq"), diastolic = Pressure.mmHg(76, in: "cmAq")
            let v2 = try await server.send("POST", samples, token: device,
                                           json: ["samples": [Pressure.pair(systolic, diastolic, unit: "cmAq", id: "cuff-1", version: 2)]])
            #expect(v2.json["results"]?[0]?["outcome"] == "replaced")
            let second = try #require(v2.json["results"]?[0]?["uuid"]?.stringValue)
            let delta = try await server.send("GET", "\(changes)?anchor=\(anchor)", token: device)
            #expect(delta.json["deletedObjects"]?.arrayValue?.map { [$0["uuid"], $0["type"]] } == [[.string(first), "bloodPressure"]])
            let replaced = delta.json["samples"]?[0]
            #expect(delta.json["samples"]?.arrayValue?.count == 1 && replaced?["uuid"] == .string(second))
            #expect(abs((replaced?["components"]?["bloodPressureSystolic"]?.numberValue ?? 0) - 118) < 1e-9)
            #expect(abs((replaced?["components"]?["bloodPressureDiastolic"]?.numberValue ?? 0) - 76) < 1e-9)
            // Read back in inHg: both components convert.
            let inHg = try await server.send("GET", "\(changes)?unit=inHg", token: device)
            #expect(inHg.json["samples"]?[0]?["unit"] == "inHg")
            #expect(abs((inHg.json["samples"]?[0]?["components"]?["bloodPressureDiastolic"]?.numberValue ?? 0) - Pressure.mmHg(76, in: "inHg")) < 1e-9)

            // The same version with another diastolic is ignored: the pair is one versioned object.
            let same = try await server.send("POST", samples, token: device, json: ["samples": [Pressure.pair(118, 99, id: "cuff-1", version: 2)]])
            #expect(same.json["results"]?[0]?["outcome"] == "ignored" && same.json["results"]?[0]?["reason"] == "sameVersion")

            // Deleting by sync identifier removes both components: one deleted object, nothing live.
            let deleted = try await server.send("POST", "\(samples)/delete", token: device, json: ["syncIdentifiers": ["cuff-1"]])
            #expect(deleted.json["results"]?[0]?["outcome"] == "deleted" && deleted.json["results"]?[0]?["uuid"] == .string(second))
            let after = try await server.send("GET", changes, token: device)
            #expect(after.json["samples"]?.arrayValue?.isEmpty == true)
            // From the start: both versions' pairs are deleted objects, each one object.
            #expect(after.json["deletedObjects"]?.arrayValue?.map { [$0["uuid"], $0["type"]] }
                    == [[.string(first), "bloodPressure"], [.string(second), "bloodPressure"]])
        }
    }

    @Test func halfPairsAndMisplacedComponentsAre422NamingTheFieldAndStoreNothing() async throws {
        try await TestServer.with { server in
            let device = server.tokens.aliceDevice
            var half = Pressure.pair(120, 80).objectValue!
            half["components"] = ["bloodPressureSystolic": 120]
            var withValue = Pressure.pair(120, 80).objectValue!
            withValue["value"] = 120
            var bare = Pressure.pair(120, 80).objectValue!
            bare["components"] = nil
            bare["value"] = 120
            var unknown = Pressure.pair(120, 80).objectValue!
            unknown["components"] = ["bloodPressureSystolic": 120, "bloodPressureDiastolic": 80, "heartRate": 60]
            var text = Pressure.pair(120, 80).objectValue!
            text["components"] = ["bloodPressureSystolic": "120", "bloodPressureDiastolic": 80]
            var steps = Fixtures.steps(10).objectValue!
            steps["components"] = ["bloodPressureSystolic": 120, "bloodPressureDiastolic": 80]
            let cases: [(JSONValue, [String])] = [
                (.object(half), ["components.bloodPressureDiastolic"]),
                (Pressure.pair(120, 80, unit: "kg"), ["unit"]),
                (.object(withValue), ["value"]),
                (.object(bare), ["value", "components"]),
                (.object(unknown), ["components.heartRate"]),
                (.object(text), ["components.bloodPressureSystolic"]),
                (.object(steps), ["components"]),
            ]
            for (sample, fields) in cases {
                // Each after a valid pair in the same batch: the whole batch is refused.
                let reply = try await server.send("POST", samples, token: device, json: ["samples": [Pressure.pair(110, 70), sample]])
                reply.expectProblem(422, "validationFailed")
                let errors = reply.json["errors"]?.arrayValue ?? []
                #expect(errors.compactMap { $0["field"]?.stringValue } == fields, "\(reply.text)")
                #expect(errors.allSatisfy { $0["index"] == 1 })
            }
            let message = try await server.send("POST", samples, token: device, json: ["samples": [.object(half)]])
            #expect(message.json["errors"]?[0]?["message"]?.stringValue?.contains("bloodPressureSystolic and bloodPressureDiastolic") == true)
            let feed = try await server.send("GET", changes, token: device)
            #expect(feed.json["samples"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test func aPairNeedsTheRightsToBothComponents() async throws {
        try await TestServer.with { server in
            let admin = server.app.api.admin
            func token(read: [String]?, write: [String]?) throws -> String {
                try admin.createToken(TokenSpec(role: .device, patient: "alice", source: "org.example.cuff",
                                                readTypes: read, writeTypes: write), now: Date()).secret
            }
            let both = ["bloodPressureSystolic", "bloodPressureDiastolic"]
            let half = try token(read: ["bloodPressureSystolic"], write: ["bloodPressureSystolic"])
            let full = try token(read: both, write: both)
            let refused = try await server.send("POST", samples, token: half, json: ["samples": [Pressure.pair(120, 80)]])
            refused.expectProblem(403, "forbidden")
            #expect(refused.json["errors"]?[0]?["field"] == "type", "\(refused.text)")
            let stored = try await server.send("POST", samples, token: full, json: ["samples": [Pressure.pair(120, 80)]])
            #expect(stored.status == 200, "\(stored.text)")
            // Reading a pair also needs both: the half token's feed does not show it.
            #expect(try await server.send("GET", changes, token: full).json["samples"]?.arrayValue?.count == 1)
            #expect(try await server.send("GET", changes, token: half).json["samples"]?.arrayValue?.isEmpty == true)
            #expect(try await server.send("GET", "\(changes)?types=bloodPressure", token: half).json["samples"]?.arrayValue?.isEmpty == true)
            // A token lists a correlation's components, never the correlation itself (as HealthKit authorizes).
            let listed = try await server.send("POST", "/v1/tokens", token: server.tokens.admin,
                                               json: ["role": "device", "patient": "alice", "readTypes": ["bloodPressure"]])
            listed.expectProblem(422, "validationFailed")
            #expect(listed.json["errors"]?[0]?["field"] == "readTypes", "\(listed.text)")
        }
    }

    @Test func aWeeklyReportCarriesAPairWithItsChartPoint() async throws {
        try await TestServer.with { server in
            let therapist = server.tokens.therapist
            func report(version: Int, diastolic: Double) -> JSONValue {
                var reading = Pressure.pair(120, diastolic).objectValue!
                reading["key"] = "pressure"
                reading["start"] = "2020-06-18T10:30:00-07:00"
                reading["end"] = "2020-06-18T10:30:00-07:00"
                var body = Fixtures.report(version: version, tests: [("2020-06-18", 450)]).objectValue!
                body["samples"] = .array((body["samples"]?.arrayValue ?? []) + [.object(reading)])
                return .object(body)
            }
            let path = "/v1/patients/alice/weekly-reports"
            let v1 = try await server.send("POST", path, token: therapist, json: report(version: 1, diastolic: 80))
            #expect(v1.status == 200 || v1.status == 201, "\(v1.text)")
            let stored = try #require(v1.json["report"]?["samples"]?.arrayValue?.first { $0["key"] == "pressure" })
            #expect(stored["components"] == ["bloodPressureSystolic": 120, "bloodPressureDiastolic": 80])
            let point = v1.json["report"]?["chart"]?[3]?["values"]?.arrayValue?.first { $0["key"] == "pressure" }
            #expect(point?["components"] == ["bloodPressureSystolic": 120, "bloodPressureDiastolic": 80] && point?["unit"] == "mmHg")
            // A new version with the same pair keeps it; a changed diastolic replaces it.
            let v2 = try await server.send("POST", path, token: therapist, json: report(version: 2, diastolic: 80))
            let kept = v2.json["report"]?["samples"]?.arrayValue?.first { $0["key"] == "pressure" }
            #expect(kept?["uuid"] == stored["uuid"])
            let v3 = try await server.send("POST", path, token: therapist, json: report(version: 3, diastolic: 85))
            let changed = v3.json["report"]?["samples"]?.arrayValue?.first { $0["key"] == "pressure" }
            #expect(changed?["uuid"] != stored["uuid"] && changed?["components"]?["bloodPressureDiastolic"] == 85)
        }
    }
}
