import CareSyncCore
import CareSyncLocking
import Foundation
import Testing
import CareSyncTestSupport
@testable import CareSyncServer

/// The polls one commit woke share one read of their page and its small answer (`SharedPage`): written once a unit,
/// the same bytes for each caller of that read; a later read of the same position is sealed afresh.
@Suite struct SharedAnswerTests {
    static let page = ChangeSet(samples: [], deletedObjects: [], anchor: Anchor(storeID: "store", sequence: 7), hasMore: false)

    @Test func oneReadsAnswerIsWrittenOnceAUnitForEveryCaller() throws {
        let shared = SharedPage(Self.page)
        let writes = Locked([String]())
        func write(_ page: ChangeSet, _ unit: HealthUnit?) -> [UInt8] {
            writes.withLock { $0.append(unit?.symbol ?? "canonical"); return Array("answer \($0.count) in \(unit?.symbol ?? "canonical")".utf8) }
        }
        let first = shared.body(unit: nil, write: write), again = shared.body(unit: nil, write: write)
        let feet = try HealthUnit.parse("ft")
        let inFeet = shared.body(unit: feet, write: write), inFeetAgain = shared.body(unit: feet, write: write)
        #expect(first == again && inFeet == inFeetAgain && first != inFeet)
        #expect(writes.withLock { $0 } == ["canonical", "ft"])
        #expect(SharedPage(Self.page).body(unit: nil, write: write) != first, "another read writes its own answer")
    }

    @Test func callersRacingForOneAnswerAllGetTheFirstStored() async throws {
        let shared = SharedPage(Self.page)
        let counter = Locked(0)
        let bodies = await withTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<32 {
                group.addTask { shared.body(unit: nil) { _, _ in counter.withLock { $0 += 1; return Array("write \($0)".utf8) } } }
            }
            return await group.reduce(into: [[UInt8]]()) { $0.append($1) }
        }
        #expect(bodies.count == 32 && Set(bodies).count == 1)
    }

    @Test func readsOfOnePositionOneAfterAnotherCarryFreshlySealedAnchors() async throws {
        try await TestServer.with(.inMemory) { (server: TestServer) async throws in
            let t = server.tokens
            let wrote = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: ["samples": [Fixtures.steps(42)]])
            #expect(wrote.status == 200)
            let first = try await server.send("GET", "/v1/patients/alice/changes", token: t.aliceDevice)
            let second = try await server.send("GET", "/v1/patients/alice/changes", token: t.aliceDevice)
            let anchors = try [first, second].map { try #require($0.json["anchor"]?.stringValue) }
            #expect(first.json["samples"]?.arrayValue?.count == 1 && second.json["samples"] == first.json["samples"])
            #expect(anchors[0] != anchors[1], "one position, two reads: two sealed strings")
            let anchorWire = server.app.api.reader.anchors
            #expect(try anchorWire.decode(anchors[0]) == anchorWire.decode(anchors[1]))
        }
    }

    @Test func pollsOneCommitWokeInTwoUnitsEachGetTheirUnit() async throws {
        try await TestServer.with(.inMemory) { (server: TestServer) async throws in
            let t = server.tokens
            let head = try await server.send("GET", "/v1/patients/alice/changes?anchor=now", token: t.aliceDevice)
            let anchor = try #require(head.json["anchor"]?.stringValue)
            let polls = (0..<8).map { n in
                Task { try await server.send("GET", "/v1/patients/alice/changes?anchor=\(anchor)&wait=30\(n % 2 == 0 ? "" : "&unit=ft")", token: t.aliceDevice) }
            }
            let api = server.app.api
            try await Eventually.until(deadline: .seconds(60)) { api.notifier.waiterCount == 8 }
            let walk: JSONValue = ["type": "sixMinuteWalkTestDistance", "value": 400, "unit": "m",
                                   "start": "2020-06-18T10:00:00Z", "end": "2020-06-18T10:06:00Z"]
            let wrote = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: ["samples": [walk]])
            #expect(wrote.status == 200)
            for (n, poll) in polls.enumerated() {
                let answer = try await poll.value
                let sample = answer.json["samples"]?[0]
                #expect(answer.status == 200 && answer.json["samples"]?.arrayValue?.count == 1, "poll \(n): \(answer.text)")
                #expect(sample?["unit"] == .string(n % 2 == 0 ? "m" : "ft"), "poll \(n): \(answer.text)")
                let value = try #require(sample?["value"]?.numberValue)
                #expect(abs(value - (n % 2 == 0 ? 400 : 400 / 0.3048)) < 1e-9, "poll \(n): \(value)")
                #expect(try api.reader.anchors.decode(#require(answer.json["anchor"]?.stringValue)).sequence > 0)
            }
        }
    }
}
