import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// Daily step totals (LOINC 41950-7) through the server: the same figures as the statistics API, paging by day, reads by
/// id, and the 404s and 400s of docs/fhir.md "Daily step totals". Bob's zone is Europe/Berlin; 2020-10-25 is 25 hours.
@Suite struct FHIRDailyTotalTests {
    static let loinc = "code=http://loinc.org%7C41950-7"
    static let watch = "org.example.watch.bob", phone = "org.example.phone.bob"

    /// A step sample of `value` from `start` (UTC) lasting `minutes`, with a sync identifier.
    static func steps(_ value: Double, _ start: String, minutes: Double, id: String) throws -> JSONValue {
        let from = try #require(RFC3339.parse(start))
        return ["type": "stepCount", "value": .number(value), "unit": "count", "start": .string(start),
                "end": .string(RFC3339.format(from.addingTimeInterval(minutes * 60))), "syncIdentifier": .string(id), "syncVersion": 1]
    }

    /// Bob's steps from his phone and a watch, overlapping, on Berlin's 24 and 25 October 2020 (one across midnight);
    /// answers the watch's token.
    static func seed(_ server: TestServer) async throws -> String {
        let watch = try server.app.api.admin.createToken(TokenSpec(role: .device, patient: "bob", source: Self.watch), now: Date()).secret
        try await server.postSamples("bob", token: server.tokens.bobDevice, [
            try steps(3000, "2020-10-24T08:00:00Z", minutes: 60, id: "p1"), try steps(600, "2020-10-24T21:30:00Z", minutes: 60, id: "p2"),
            try steps(1000, "2020-10-25T10:00:00Z", minutes: 30, id: "p3"),
        ])
        try await server.postSamples("bob", token: watch, [
            try steps(2000, "2020-10-24T08:15:00Z", minutes: 30, id: "w1"), try steps(1200, "2020-10-25T10:00:00Z", minutes: 30, id: "w2"),
        ])
        return watch
    }

    /// The day sums of the statistics API for Bob's 23–26 October in Berlin, watch before phone (the web app's default
    /// order), or with no priority: bucket start → sum, days with a sum only.
    static func statisticsSums(_ server: TestServer, priority: Bool = true) async throws -> [Date: Double] {
        let query = "type=stepCount&start=2020-10-23T00:00:00%2B02:00&end=2020-10-27T00:00:00%2B01:00&interval=day"
            + "&timeZone=Europe/Berlin&options=cumulativeSum" + (priority ? "&priority=\(watch),\(phone)" : "")
        let reply = try await server.send("GET", "/v1/patients/bob/statistics?" + query, token: server.tokens.otherTherapist)
        #expect(reply.status == 200, "\(reply.text)")
        var sums: [Date: Double] = [:]
        for bucket in reply.json["buckets"]?.arrayValue ?? [] {
            guard let sum = bucket["sum"]?.numberValue, let start = bucket["start"]?.stringValue.flatMap(RFC3339.parse) else { continue }
            sums[start] = sum
        }
        return sums
    }

    /// The totals of a search as period start → value.
    static func sums(_ reply: TestReply) -> [Date: Double] {
        var sums: [Date: Double] = [:]
        for r in reply.resources {
            guard let start = r["effectivePeriod"]?["start"]?.stringValue.flatMap(RFC3339.parse), let v = r["valueQuantity"]?["value"]?.numberValue
            else { continue }
            sums[start] = v
        }
        return sums
    }

    @Test func dailyTotalsAreTheStatisticsDaySums() async throws {
        try await TestServer.with(.inMemory) { server in
            _ = try await Self.seed(server)
            let expected = try await Self.statisticsSums(server)
            #expect(expected.count == 2)
            #expect(try await Self.statisticsSums(server, priority: false) != expected, "the sources must overlap for the test to tell")
            let reply = try await server.fhir("/fhir/R4/Observation?patient=bob&\(Self.loinc)", token: server.tokens.otherTherapist)
            #expect(reply.status == 200 && reply.json["total"] == 2, "\(reply.text)")
            let got = Self.sums(reply)
            #expect(Set(got.keys) == Set(expected.keys))
            for (start, sum) in expected { #expect(abs((got[start] ?? -1) - sum) < 1e-6, "\(start)") }
            let day = try #require(reply.resources.last)
            #expect(day["id"] == "steps.2020-10-25.bob")
            #expect(day["effectivePeriod"]?["start"] == "2020-10-25T00:00:00+02:00" && day["effectivePeriod"]?["end"] == "2020-10-26T00:00:00+01:00")
            #expect(day["code"]?["coding"]?[0]?["code"] == "41950-7" && day["code"]?["coding"]?[1]?["code"] == "stepCount.daily")
            #expect(day["category"]?[0]?["coding"]?[0]?["code"] == "activity" && day["valueQuantity"]?["code"] == "{steps}")
            #expect(day["device"] == nil && day["meta"] == nil && day["method"]?["text"]?.stringValue?.contains("Daily sum") == true)
            #expect(day["subject"]?["reference"] == "Patient/bob")
            for code in ["41950-7", "stepCount.daily", "urn:caresync:daily-total%7CstepCount.daily"] {
                let other = try await server.fhir("/fhir/R4/Observation?patient=bob&code=\(code)", token: server.tokens.bobDevice)
                #expect(Self.sums(other) == got, "\(code)")
            }
            let samples = try await server.fhir("/fhir/R4/Observation?patient=bob", token: server.tokens.bobDevice)
            #expect(samples.json["total"] == 5 && samples.resources.allSatisfy { $0["code"]?["coding"]?[0]?["code"] == "55423-8" })
        }
    }

    @Test(arguments: ["date", "-date"]) func pagesOfOneDayYieldEveryDayOnceInOrder(sort: String) async throws {
        try await TestServer.with { server in
            _ = try await Self.seed(server)
            var url: String? = "/fhir/R4/Observation?patient=bob&\(Self.loinc)&_count=1&_sort=\(sort)"
            var ids: [String] = []
            while let next = url, ids.count < 10 {
                let reply = try await server.fhir(next, token: server.tokens.bobDevice)
                #expect(reply.status == 200 && reply.json["total"] == 2, "\(reply.text)")
                ids += reply.resources.compactMap { $0["id"]?.stringValue }
                url = reply.link("next").map { String($0.dropFirst("http://127.0.0.1:\(server.port)".count)) }
            }
            let days = ["steps.2020-10-24.bob", "steps.2020-10-25.bob"]
            #expect(ids == (sort == "date" ? days : days.reversed()))
        }
    }

    @Test func dateNarrowsToTheLocalDays() async throws {
        try await TestServer.with(.inMemory) { server in
            _ = try await Self.seed(server)
            func ids(_ query: String) async throws -> [String] {
                let reply = try await server.fhir("/fhir/R4/Observation?patient=bob&code=41950-7&" + query, token: server.tokens.bobDevice)
                #expect(reply.status == 200, "\(query): \(reply.text)")
                #expect(reply.json["total"]?.integerValue.map(Int.init) == reply.resources.count)
                return reply.resources.compactMap { $0["id"]?.stringValue }
            }
            #expect(try await ids("date=ge2020-10-25T00:00:00%2B02:00") == ["steps.2020-10-25.bob"])
            #expect(try await ids("date=lt2020-10-25T00:00:00%2B02:00") == ["steps.2020-10-24.bob"])
            #expect(try await ids("date=ge2020-10-26") == [])
            #expect(try await ids("date=2020-10") == ["steps.2020-10-24.bob", "steps.2020-10-25.bob"])
        }
    }

    @Test func aReadAnswersTheSearchedDayAndIsAudited() async throws {
        try await TestServer.with(.inMemory) { server in
            _ = try await Self.seed(server)
            let search = try await server.fhir("/fhir/R4/Observation?patient=bob&\(Self.loinc)", token: server.tokens.otherTherapist)
            for resource in search.resources {
                let id = try #require(resource["id"]?.stringValue)
                let read = try await server.fhir("/fhir/R4/Observation/\(id)", token: server.tokens.bobDevice)
                #expect(read.status == 200 && read.json == resource, "\(read.text)")
            }
            let records = try await server.send("GET", "/v1/audit?patient=bob", token: server.tokens.admin).json["records"]?.arrayValue ?? []
            #expect(records.contains { $0["action"] == "fhir.observations.search" && $0["status"] == 200 && $0["count"] == 2 })
            #expect(records.filter { $0["action"] == "fhir.observations.read" && $0["status"] == 200 && $0["count"] == 1 }.count == 2)
        }
    }

    @Test func readsOutOfReachOfAnotherTypeOrWithoutStepsAre404() async throws {
        try await TestServer.with(.inMemory) { server in
            _ = try await Self.seed(server)
            let t = server.tokens
            let heartOnly = try server.app.api.admin.createToken(TokenSpec(role: .device, patient: "bob", source: "org.example.hr",
                                                                           readTypes: ["heartRate"]), now: Date()).secret
            let id = "steps.2020-10-25.bob"
            #expect(try await server.fhir("/fhir/R4/Observation/\(id)", token: t.bobDevice).status == 200)
            for (path, token) in [(id, t.aliceDevice), (id, t.therapist), (id, t.admin), (id, heartOnly),
                                  ("steps.2020-10-23.bob", t.bobDevice), ("steps.2020-10-25.bo_b", t.bobDevice),
                                  ("steps.2020-13-25.bob", t.bobDevice), ("steps.2020-10-25.alice", t.bobDevice)] {
                let reply = try await server.fhir("/fhir/R4/Observation/\(path)", token: token)
                #expect(reply.status == 404 && reply.outcomeIssue == "not-found", "\(path): \(reply.text)")
            }
            let hidden = try await server.fhir("/fhir/R4/Observation?patient=bob&\(Self.loinc)", token: heartOnly)
            #expect(hidden.status == 200 && hidden.json["total"] == 0 && hidden.resources.isEmpty)
            #expect(try await server.fhir("/fhir/R4/Observation?patient=bob&\(Self.loinc)", token: t.therapist).status == 404)
        }
    }

    @Test func aDeletedSampleChangesTheDayTotal() async throws {
        try await TestServer.with(.inMemory) { server in
            let watch = try await Self.seed(server)
            let before = try await server.fhir("/fhir/R4/Observation/steps.2020-10-25.bob", token: server.tokens.bobDevice)
            let deleted = try await server.send("POST", "/v1/patients/bob/samples/delete", token: watch, json: ["syncIdentifiers": ["w2"]])
            #expect(deleted.status == 200, "\(deleted.text)")
            let after = try await server.fhir("/fhir/R4/Observation/steps.2020-10-25.bob", token: server.tokens.bobDevice)
            let midnight = try #require(RFC3339.parse("2020-10-24T22:00:00Z"))
            let sums = try await Self.statisticsSums(server)
            let expected = try #require(sums[midnight])
            let value = try #require(after.json["valueQuantity"]?["value"]?.numberValue)
            #expect(before.json["valueQuantity"]?["value"]?.numberValue != value)
            #expect(abs(value - expected) < 1e-6)
        }
    }

    @Test(arguments: [("\(loinc),55423-8", "not-supported"), ("\(loinc)&_lastUpdated=gt2020", "not-supported"),
                      ("\(loinc)&_cursor=garbage", "invalid"), ("\(loinc)&_cursor=1603576800000.0190a3c4-0000-7000-8000-000000000000", "invalid"),
                      ("code=55423-8&_cursor=2020-10-24", "invalid")])
    func mixedCodesLastUpdatedAndForeignCursorsAre400(query: String, issue: String) async throws {
        try await TestServer.with(.inMemory) { server in
            let reply = try await server.fhir("/fhir/R4/Observation?patient=bob&" + query, token: server.tokens.bobDevice)
            #expect(reply.status == 400 && reply.outcomeIssue == issue, "\(query): \(reply.text)")
        }
    }
}
