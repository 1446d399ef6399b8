import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// Write times over FHIR: `meta.lastUpdated` on search, read and export lines, the `_lastUpdated` search parameter, and an
/// instant as a bulk export's `_since` (exactly the changes committed at or after it), all under an injected clock.
@Suite struct FHIRWriteTimeTests {
    /// 2026-01-05T09:00:00.123Z, 2026-01-06T10:00:00Z, 2026-01-07T11:00:00Z.
    static let t1 = Date(timeIntervalSince1970: 1_767_603_600.123), t2 = Date(timeIntervalSince1970: 1_767_693_600),
               t3 = Date(timeIntervalSince1970: 1_767_783_600)

    /// Posts one step count of alice's phone at `minute` (its value), at `time`.
    static func post(_ server: TestServer, _ clock: ManualClock, minute: Int, at time: Date) async throws {
        clock.set(time)
        try await server.postSamples("alice", token: server.tokens.aliceDevice,
                                     [FHIRFixtures.sample("stepCount", Double(minute), unit: "count", minute: minute, minutes: 1)])
    }

    /// The step values of a search's Observations, in order.
    static func values(_ reply: TestReply) -> [Double] {
        reply.resources.compactMap { $0["valueQuantity"]?["value"]?.numberValue }
    }

    @Test(arguments: TestServer.Mode.allCases) func observationsCarryTheirWriteTime(mode: TestServer.Mode) async throws {
        let clock = ManualClock(at: Self.t1)
        try await TestServer.with(mode, clock: clock.serverClock) { server in
            try await Self.post(server, clock, minute: 1, at: Self.t1)
            try await Self.post(server, clock, minute: 2, at: Self.t2)
            let search = try await server.fhir("/fhir/R4/Observation?patient=alice", token: server.tokens.therapist)
            #expect(search.status == 200 && Self.values(search) == [1, 2], "\(search.text)")
            let updated = search.resources.map { $0["meta"]?["lastUpdated"]?.stringValue }
            #expect(updated == ["2026-01-05T09:00:00.123Z", "2026-01-06T10:00:00.000Z"])
            let id = try #require(search.resources.first?["id"]?.stringValue)
            let read = try await server.fhir("/fhir/R4/Observation/\(id)", token: server.tokens.therapist)
            #expect(read.status == 200 && read.json["meta"]?["lastUpdated"] == "2026-01-05T09:00:00.123Z", "\(read.text)")
            let export = try await server.export("/fhir/R4/Patient/alice/$export", token: server.tokens.therapist)
            #expect(export.observations.map { $0["meta"]?["lastUpdated"]?.stringValue } == updated)
            #expect(export.manifest["transactionTime"] == "2026-01-06T10:00:00.000Z", "the head's write time")
        }
    }

    @Test func lastUpdatedTakesTheDatePrefixesAndPrecisions() async throws {
        let clock = ManualClock(at: Self.t1)
        try await TestServer.with(.inMemory, clock: clock.serverClock) { server in
            try await Self.post(server, clock, minute: 1, at: Self.t1)
            try await Self.post(server, clock, minute: 2, at: Self.t2)
            try await Self.post(server, clock, minute: 3, at: Self.t3)
            func search(_ query: String) async throws -> [Double] {
                let reply = try await server.fhir("/fhir/R4/Observation?patient=alice&" + query, token: server.tokens.therapist)
                #expect(reply.status == 200, "\(query): \(reply.text)")
                #expect(reply.json["total"]?.numberValue.map(Int.init) == Self.values(reply).count, "\(query)")
                return Self.values(reply)
            }
            #expect(try await search("_lastUpdated=2026-01-06") == [2])
            #expect(try await search("_lastUpdated=eq2026-01-06") == [2])
            #expect(try await search("_lastUpdated=ne2026-01-06") == [1, 3])
            #expect(try await search("_lastUpdated=gt2026-01-06") == [3])
            #expect(try await search("_lastUpdated=ge2026-01-06") == [2, 3])
            #expect(try await search("_lastUpdated=lt2026-01-06") == [1])
            #expect(try await search("_lastUpdated=le2026-01-06") == [1, 2])
            #expect(try await search("_lastUpdated=2026-01") == [1, 2, 3])
            #expect(try await search("_lastUpdated=2026-01-05T09:00:00.123Z") == [1])
            #expect(try await search("_lastUpdated=gt2026-01-05T09:00:00.123Z") == [2, 3])
            #expect(try await search("_lastUpdated=ge2026-01-05T09:00:00.124Z&_lastUpdated=lt2026-01-07") == [2], "a range")
            #expect(try await search("_lastUpdated=ge2026-01-05T10:00%2B01:00&_lastUpdated=le2026-01-06T10:00Z") == [1, 2], "offsets, minutes")
            let paged = try await server.fhir("/fhir/R4/Observation?patient=alice&_lastUpdated=ge2026-01-06&_count=1",
                                              token: server.tokens.therapist)
            #expect(paged.link("self")?.contains("_lastUpdated=ge2026-01-06") == true && paged.link("next")?.contains("_lastUpdated=ge2026-01-06") == true)
            let bad = try await server.fhir("/fhir/R4/Observation?patient=alice&_lastUpdated=yesterday", token: server.tokens.therapist)
            #expect(bad.status == 400 && bad.outcomeIssue == "invalid", "\(bad.text)")
            let metadata = try await server.fhir("/fhir/R4/metadata", token: nil)
            let parameters = metadata.json["rest"]?[0]?["resource"]?[0]?["searchParam"]?.arrayValue ?? []
            #expect(parameters.contains { $0["name"] == "_lastUpdated" && $0["type"] == "date" })
        }
    }

    @Test(arguments: TestServer.Mode.allCases) func anInstantSinceExportsExactlyTheChangesCommittedFromThen(mode: TestServer.Mode) async throws {
        let clock = ManualClock(at: Self.t1)
        try await TestServer.with(mode, clock: clock.serverClock) { server in
            let t = server.tokens
            try await Self.post(server, clock, minute: 0, at: Self.t1.addingTimeInterval(-86_400))   // earlier, still live
            try await Self.post(server, clock, minute: 1, at: Self.t1)       // A
            try await Self.post(server, clock, minute: 2, at: Self.t2)       // B
            let a = try #require(try await server.fhir("/fhir/R4/Observation?patient=alice", token: t.therapist).resources.dropFirst().first)
            let aID = try #require(a["id"]?.stringValue)
            clock.set(Self.t3)                                                  // C: A deleted
            let deletion = try await server.send("POST", "/v1/patients/alice/samples/delete", token: t.aliceDevice,
                                                 json: ["uuids": [.string(aID)]])
            #expect(deletion.status == 200, "\(deletion.text)")
            func export(since: Date) async throws -> (observations: [Double], deleted: [String]) {
                let text = RFC3339.format(since)
                let download = try await server.export("/fhir/R4/Patient/alice/$export?_since=\(text)", token: t.therapist)
                return (download.observations.compactMap { $0["valueQuantity"]?["value"]?.numberValue }, download.deletedIDs)
            }
            let between = try await export(since: Self.t1.addingTimeInterval(60))
            #expect(between.observations == [2] && between.deleted == [aID], "B and C only")
            let atB = try await export(since: Self.t2)
            #expect(atB.observations == [2] && atB.deleted == [aID], "a commit at the instant is at or after it")
            let afterB = try await export(since: Self.t2.addingTimeInterval(0.001))
            #expect(afterB.observations.isEmpty && afterB.deleted == [aID], "C only")
            let after = try await export(since: Self.t3.addingTimeInterval(0.001))
            #expect(after.observations.isEmpty && after.deleted.isEmpty)
            let before = try await export(since: Self.t1)
            #expect(before.observations == [2] && before.deleted == [aID], "A was deleted since: only its deletion")
            let everything = try await export(since: Self.t1.addingTimeInterval(-86_400))
            #expect(everything.observations == [0, 2] && everything.deleted == [aID])
        }
    }

    @Test func anInstantBeforeAPurgedDeletionIs410() async throws {
        let clock = ManualClock(at: Self.t1)
        try await TestServer.with(.inMemory, clock: clock.serverClock) { server in
            let t = server.tokens
            try await Self.post(server, clock, minute: 1, at: Self.t1)
            let a = try #require(try await server.fhir("/fhir/R4/Observation?patient=alice", token: t.therapist).resources.first?["id"]?.stringValue)
            clock.set(Self.t2)
            #expect(try await server.send("POST", "/v1/patients/alice/samples/delete", token: t.aliceDevice, json: ["uuids": [.string(a)]]).status == 200)
            try await Self.post(server, clock, minute: 3, at: Self.t3)
            #expect(try server.app.api.store.purgeTombstones(before: Self.t3) == 1)
            let old = try await server.kickOff("/fhir/R4/Patient/alice/$export?_since=\(RFC3339.format(Self.t1))", token: t.therapist)
            #expect(old.status == 410 && old.outcomeIssue == "invalid", "\(old.text)")
            let recent = try await server.export("/fhir/R4/Patient/alice/$export?_since=\(RFC3339.format(Self.t3))", token: t.therapist)
            #expect(recent.observations.compactMap { $0["valueQuantity"]?["value"]?.numberValue } == [3] && recent.deletedIDs.isEmpty)
        }
    }
}
