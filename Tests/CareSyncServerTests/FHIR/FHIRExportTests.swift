import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// `$export` in the FHIR Bulk Data style: kick-off, status, manifest, files, cancellation, expiry and who may do what.
@Suite struct FHIRExportTests {
    @Test(arguments: TestServer.Mode.allCases) func aPatientExportAnswersAManifestOfNDJSONFiles(mode: TestServer.Mode) async throws {
        try await TestServer.with(mode) { server in
            try await FHIREndpointTests.seed(server)
            let t = server.tokens
            let kick = try await server.kickOff("/fhir/R4/Patient/alice/$export?_type=Observation", token: t.therapist)
            #expect(kick.status == 202 && kick.json["resourceType"] == "OperationOutcome", "\(kick.text)")
            let location = try #require(kick.header("Content-Location"))
            let origin = mode == .inMemory ? "http://caresync.test" : "http://127.0.0.1:\(server.port)"
            #expect(location.hasPrefix(origin + "/fhir/R4/bulk-export/"))
            let done = try await server.awaitStatus(TestServer.path(of: location), token: t.therapist)
            #expect(done.status == 200 && done.header("Content-Type") == "application/json" && done.header("Expires") != nil)
            let manifest = done.json
            #expect(manifest["request"]?.stringValue == origin + "/fhir/R4/Patient/alice/$export?_type=Observation")
            #expect(manifest["requiresAccessToken"] == true && manifest["error"] == [])
            #expect(manifest["transactionTime"]?.stringValue.flatMap(RFC3339.parse) != nil)
            #expect(manifest["output"]?[0]?["type"] == "Observation" && manifest["output"]?[0]?["count"] == 15)
            #expect(manifest["deleted"] == [])
            let observations = try await server.lines(of: manifest["output"], token: t.therapist)
            #expect(observations.count == 15 && observations.allSatisfy { $0["resourceType"] == "Observation" })
            #expect(observations.allSatisfy { $0["subject"]?["reference"] == "Patient/alice" })
            let next = try #require(manifest["extension"]?["caresyncNextSince"]?.stringValue)
            // The next anchor is a feed anchor of this store: the feed from it is empty, as nothing changed since.
            let feed = try await server.send("GET", "/v1/patients/alice/changes?anchor=\(next)", token: t.therapist)
            #expect(feed.status == 200 && feed.json["samples"] == [] && feed.json["deletedObjects"] == [])
        }
    }

    @Test func theDeviceExportsItsOwnPatientsCopyAndEveryStepIsAudited() async throws {
        try await TestServer.with(.inMemory) { server in
            try await FHIREndpointTests.seed(server)
            let t = server.tokens
            let copy = try await server.export("/fhir/R4/Patient/alice/$export", token: t.aliceDevice)
            #expect(copy.observations.count == 15)
            let audit = try await server.send("GET", "/v1/audit?patient=alice", token: t.admin)
            let actions = (audit.json["records"]?.arrayValue ?? []).compactMap { $0["action"]?.stringValue }
            for action in ["fhir.export.start", "fhir.export.read", "fhir.export.status", "fhir.export.file"] {
                #expect(actions.contains(action), "\(action) not audited: \(actions)")
            }
            let read = audit.json["records"]?.arrayValue?.first { $0["action"] == "fhir.export.read" }
            #expect(read?["count"] == 15 && read?["role"] == "device")
            #expect(!audit.text.contains("\"value\""))
        }
    }

    @Test func othersAreRefusedAsIfNothingExisted() async throws {
        try await TestServer.with(.inMemory) { server in
            try await FHIREndpointTests.seed(server)
            let t = server.tokens
            for token in [t.otherTherapist, t.bobDevice, t.admin] {
                let reply = try await server.kickOff("/fhir/R4/Patient/alice/$export", token: token)
                #expect(reply.status == 404 && reply.outcomeIssue == "not-found", "\(reply.text)")
            }
            for token in [t.otherTherapist, t.aliceDevice, t.admin] {
                #expect(try await server.kickOff("/fhir/R4/Group/physio/$export", token: token).status == 404)
            }
            #expect(try await server.kickOff("/fhir/R4/Group/nobody/$export", token: t.therapist).status == 404)
            #expect(try await server.kickOff("/fhir/R4/Patient/alice/$export", token: nil).status == 401)
            // The status URL, the files and the cancel answer the token that started the export, and no other.
            let mine = try await server.export("/fhir/R4/Patient/alice/$export", token: t.aliceDevice)
            let file = try #require(mine.manifest["output"]?[0]?["url"]?.stringValue)
            for token in [t.therapist, t.bobDevice, t.admin] {
                #expect(try await server.fhir(mine.statusPath, token: token).status == 404)
                #expect(try await server.fhir(TestServer.path(of: file), token: token).status == 404)
                #expect(try await server.send("DELETE", mine.statusPath, token: token).status == 404)
            }
            #expect(try await server.fhir(mine.statusPath, token: t.aliceDevice).status == 200)
        }
    }

    @Test func aGroupExportHoldsEveryPatientOfTheTeamOnce() async throws {
        try await TestServer.with(.inMemory) { server in
            try await FHIREndpointTests.seed(server)
            _ = try server.app.api.admin.createPatient(id: "carol", timeZone: "UTC", now: Date())
            try server.app.api.admin.addPatient("carol", toCareTeam: "physio")
            try await server.postSamples("carol", token: server.tokens.therapist,
                                         [FHIRFixtures.sample("bodyMass", 70, unit: "kg", minute: 3)])
            let group = try await server.export("/fhir/R4/Group/physio/$export", token: server.tokens.therapist)
            let subjects = group.observations.compactMap { $0["subject"]?["reference"]?.stringValue }
            #expect(subjects.filter { $0 == "Patient/alice" }.count == 15 && subjects.filter { $0 == "Patient/carol" }.count == 1)
            let ids = group.observations.compactMap { $0["id"]?.stringValue }
            #expect(Set(ids).count == ids.count)
            // The narrow token of the same team sees only its readable type.
            let narrow = try await server.export("/fhir/R4/Group/physio/$export", token: server.tokens.narrow)
            #expect(narrow.observations.count == 1 && narrow.observations[0]["code"]?["coding"]?[0]?["code"] == "64098-7")
        }
    }

    @Test func kickOffParametersAreChecked() async throws {
        try await TestServer.with(.inMemory) { server async throws in
            let t = server.tokens, path = "/fhir/R4/Patient/alice/$export"
            func issue(_ query: String, prefer: String? = "respond-async") async throws -> String {
                let reply = try await server.kickOff(path + query, token: t.therapist, prefer: prefer)
                return "\(reply.status) \(reply.outcomeIssue ?? "-")"
            }
            #expect(try await issue("", prefer: nil) == "400 invalid")
            #expect(try await issue("?_since=not-an-anchor") == "400 invalid")
            #expect(try await issue("?_since=2020-06-18T10:00:00") == "400 invalid")
            #expect(try await issue("?_outputFormat=text/csv") == "400 invalid")
            #expect(try await issue("?_typeFilter=x", prefer: "respond-async, handling=strict") == "400 not-supported")
            #expect(try await issue("?_type=Patient", prefer: "respond-async; handling=strict") == "400 not-supported")
            #expect(try await issue("?_typeFilter=x&_outputFormat=application/fhir%2Bndjson") == "202 informational")
        }
    }
}

extension FHIRFixtures {
    /// A step count stored directly in a store (10:00 UTC on 2020-06-18 plus `value` minutes).
    static func input(_ value: Double) -> SampleInput {
        let start = Date(timeIntervalSince1970: 1_592_474_400 + value * 60)
        return SampleInput(type: .stepCount, value: value, start: start, end: start.addingTimeInterval(60))
    }
}
