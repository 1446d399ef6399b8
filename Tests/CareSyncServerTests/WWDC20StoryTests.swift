import Foundation
import Testing
@testable import CareSyncServer

/// The WWDC20 story through HTTP: a therapist posts weekly reports, a device follows the anchored feed.
@Suite(.serialized) struct WWDC20StoryTests {
    @Test(arguments: TestServer.Mode.allCases)
    func correctionShowsOneTombstoneAndOneSample(mode: TestServer.Mode) async throws {
        try await TestServer.with(mode) { server in
            let t = server.tokens
            let reports = "/v1/patients/alice/weekly-reports"

            let v1 = try await server.send("POST", reports, token: t.therapist,
                                           json: Fixtures.report(version: 1, tests: [("2020-06-16", 380), ("2020-06-18", 400), ("2020-06-19", 420)]))
            #expect(v1.status == 200)
            #expect(v1.json["outcome"] == "inserted")

            let first = try await server.send("GET", "/v1/patients/alice/changes", token: t.aliceDevice)
            #expect(first.status == 200)
            let samples = first.json["samples"]?.arrayValue ?? []
            #expect(samples.count == 3)
            #expect(first.json["deletedObjects"]?.arrayValue?.isEmpty == true)
            #expect(first.json["hasMore"] == false)
            #expect(samples.allSatisfy { $0["source"] == "org.example.therapist" && $0["syncVersion"] == 1 })
            let june18 = try #require(samples.first { $0["syncIdentifier"] == "report-2020-W25/2020-06-18" })
            #expect(june18["value"] == 400)
            let anchor = try #require(first.json["anchor"]?.stringValue)

            let v2 = try await server.send("POST", reports, token: t.therapist,
                                           json: Fixtures.report(version: 2, tests: [("2020-06-16", 380), ("2020-06-18", 450), ("2020-06-19", 420)]))
            #expect(v2.json["outcome"] == "replaced")

            let second = try await server.send("GET", "/v1/patients/alice/changes?anchor=\(anchor)", token: t.aliceDevice)
            #expect(second.status == 200)
            let deleted = second.json["deletedObjects"]?.arrayValue ?? []
            let added = second.json["samples"]?.arrayValue ?? []
            #expect(deleted.count == 1)
            #expect(added.count == 1)
            #expect(deleted.first?["uuid"] == june18["uuid"])
            #expect(added.first?["value"] == 450)
            #expect(added.first?["syncVersion"] == 2)
            #expect(added.first?["uuid"] != june18["uuid"])
            let anchor2 = try #require(second.json["anchor"]?.stringValue)

            // Resending v2, or v1, changes nothing.
            for version in [2, 1] {
                let again = try await server.send("POST", reports, token: t.therapist,
                                                  json: Fixtures.report(version: version, tests: [("2020-06-18", 999)]))
                #expect(again.status == 200)
                #expect(again.json["outcome"] == "ignored")
            }
            let third = try await server.send("GET", "/v1/patients/alice/changes?anchor=\(anchor2)", token: t.aliceDevice)
            #expect(third.json["samples"]?.arrayValue?.isEmpty == true)
            #expect(third.json["deletedObjects"]?.arrayValue?.isEmpty == true)

            // The report reads back with its chart: seven days, the empty ones included.
            let report = try await server.send("GET", "\(reports)/report-2020-W25", token: t.therapist)
            #expect(report.status == 200)
            #expect(report.json["syncVersion"] == 2)
            let chart = report.json["chart"]?.arrayValue ?? []
            #expect(chart.map { $0["day"]?.stringValue ?? "" } == (15...21).map { "2020-06-\($0)" })
            #expect(chart.map { $0["values"]?.arrayValue?.count ?? -1 } == [0, 1, 0, 1, 1, 0, 0])
            #expect(chart[3]["values"]?.arrayValue?.first?["value"] == 450)
        }
    }

    @Test(arguments: TestServer.Mode.allCases)
    func samplesFollowTheSyncVersionRules(mode: TestServer.Mode) async throws {
        try await TestServer.with(mode) { server in
            let path = "/v1/patients/alice/samples"
            let token = server.tokens.aliceDevice
            let first = try await server.send("POST", path, token: token, json: ["samples": [Fixtures.steps(100, id: "d1", version: 1), Fixtures.steps(5, hour: 11)]])
            #expect(first.status == 200)
            #expect(first.json["results"]?.arrayValue?.map { $0["outcome"] } == ["inserted", "inserted"])
            let replay = try await server.send("POST", path, token: token, json: ["samples": [
                Fixtures.steps(100, id: "d1", version: 1), Fixtures.steps(90, id: "d1", version: 0), Fixtures.steps(120, id: "d1", version: 2)]])
            let results = replay.json["results"]?.arrayValue ?? []
            #expect(results.map { $0["outcome"] } == ["ignored", "ignored", "replaced"])
            #expect(results.map { $0["reason"] } == ["sameVersion", "olderVersion", nil])
            #expect(results.map { $0["index"] } == [0, 1, 2])

            // A device deletes only its own samples; the therapist's delete of them is notOwned.
            let uuid = try #require(replay.json["results"]?[2]?["uuid"]?.stringValue)
            let notOwned = try await server.send("POST", "\(path)/delete", token: server.tokens.therapist, json: ["uuids": [.string(uuid)]])
            #expect(notOwned.json["results"]?[0]?["outcome"] == "notOwned")
            let deleted = try await server.send("POST", "\(path)/delete", token: token, json: ["syncIdentifiers": ["d1"]])
            #expect(deleted.status == 200)
            #expect(deleted.json["results"]?[0]?["outcome"] == "deleted")
            let feed = try await server.send("GET", "/v1/patients/alice/changes?types=stepCount", token: token)
            // Left: the unidentified sample; tombstones: d1 v1 (replaced) and d1 v2 (deleted).
            #expect(feed.json["samples"]?.arrayValue?.count == 1)
            #expect(feed.json["deletedObjects"]?.arrayValue?.map { $0["syncVersion"] } == [1, 2])
        }
    }
}

extension JSONValue {
    /// Element access on arrays, for tests.
    subscript(index: Int) -> JSONValue? { arrayValue.flatMap { index < $0.count ? $0[index] : nil } }
}
