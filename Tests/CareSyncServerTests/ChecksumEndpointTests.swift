import CareSyncCore
import Foundation
import Testing
@testable import CareSyncServer

/// GET …/checksums: a replica built from the feed over HTTP matches the figures at every anchor it reached, and a
/// corrupted replica sample makes its type, and no other, mismatch.
@Suite struct ChecksumEndpointTests {
    /// A replica as a client keeps it: uuid → (type, syncVersion), from the wire.
    typealias Replica = [String: (type: String, version: Int64?)]

    /// Follows the feed from `anchor` to its end, applying pages to `replica`; returns the last anchor.
    static func follow(_ server: TestServer, token: String, from anchor: String?, into replica: inout Replica) async throws -> String {
        var next = anchor
        while true {
            let page = try await server.send("GET", "/v1/patients/alice/changes?limit=7" + (next.map { "&anchor=\($0)" } ?? ""), token: token)
            #expect(page.status == 200, "\(page.text)")
            for gone in page.json["deletedObjects"]?.arrayValue ?? [] { replica[gone["uuid"]!.stringValue!] = nil }
            for sample in page.json["samples"]?.arrayValue ?? [] {
                replica[sample["uuid"]!.stringValue!] = (sample["type"]!.stringValue!, sample["syncVersion"]?.numberValue.map { Int64($0) })
            }
            next = page.json["anchor"]?.stringValue
            if page.json["hasMore"] != true { return next! }
        }
    }

    /// The figures a client computes from its replica, as docs/api.md says: FNV-1a 64 of `<UUID>:<version>`, summed.
    static func figures(_ replica: Replica) -> [String: JSONValue] {
        var types: [String: TypeChecksum] = [:]
        for (uuid, entry) in replica {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in (uuid + ":" + (entry.version.map(String.init) ?? "")).utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            types[entry.type, default: TypeChecksum()].add(hash)
        }
        return types.mapValues { ["count": .number(Double($0.count)), "sum": .string($0.sumHex)] }
    }

    @Test func aReplicaFromTheFeedMatchesAtEveryAnchorAndACorruptedSampleShowsInItsTypeOnly() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            var rng = SystemRandomNumberGenerator()
            var replica: Replica = [:]
            var anchor: String?
            var earlier: [(anchor: String, replica: Replica)] = []
            for round in 0..<10 {
                let batch: [JSONValue] = (0..<Int.random(in: 1...8, using: &rng)).map { _ in
                    let steps = Bool.random(using: &rng)
                    var o: [String: JSONValue] = [
                        "type": .string(steps ? "stepCount" : "heartRate"), "unit": .string(steps ? "count" : "count/min"),
                        "value": .number(Double(Int.random(in: 50...150, using: &rng))),
                        "start": .string("2020-06-1\(Int.random(in: 5...9, using: &rng))T10:00:00Z"), "end": .string("2020-06-19T10:00:00Z"),
                    ]
                    if Bool.random(using: &rng) {
                        o["syncIdentifier"] = .string("k\(Int.random(in: 0..<6, using: &rng))")
                        o["syncVersion"] = .number(Double(Int.random(in: 0...5, using: &rng)))
                    }
                    return .object(o)
                }
                #expect(try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: ["samples": .array(batch)]).status == 200)
                if round % 3 == 1 {
                    _ = try await server.send("POST", "/v1/patients/alice/samples/delete", token: t.aliceDevice,
                                              json: ["syncIdentifiers": .array((0..<2).map { _ in .string("k\(Int.random(in: 0..<6, using: &rng))") })])
                }
                if round % 4 == 2 {
                    let version = round
                    _ = try await server.send("POST", "/v1/patients/alice/weekly-reports", token: t.therapist,
                                              json: Fixtures.report(version: version, tests: [("2020-06-16", Double(300 + version)), ("2020-06-18", 410)]))
                }
                anchor = try await Self.follow(server, token: t.aliceDevice, from: anchor, into: &replica)
                let checked = try await server.send("GET", "/v1/patients/alice/checksums?anchor=\(anchor!)", token: t.aliceDevice)
                #expect(checked.status == 200, "\(checked.text)")
                let anchors = server.app.api.anchors
                #expect(checked.json["anchor"]?.stringValue.flatMap { try? anchors.decode($0) } == (try? anchors.decode(anchor!)))
                #expect(checked.json["types"] == .object(Self.figures(replica)), "round \(round)")
                earlier.append((anchor!, replica))
            }
            // An earlier anchor: the figures of the replica as it was then.
            for point in earlier.shuffled().prefix(3) {
                let then = try await server.send("GET", "/v1/patients/alice/checksums?anchor=\(point.anchor)", token: t.aliceDevice)
                #expect(then.json["types"] == .object(Self.figures(point.replica)))
            }
            // Corrupt one step sample of the replica: steps mismatch, every other type still matches.
            let head = try await server.send("GET", "/v1/patients/alice/checksums", token: t.aliceDevice)
            let victim = try #require(replica.first { $0.value.type == "stepCount" })
            replica[victim.key] = (victim.value.type, (victim.value.version ?? 0) + 1)
            let mine = Self.figures(replica)
            let theirs = try #require(head.json["types"]?.objectValue)
            #expect(mine["stepCount"] != theirs["stepCount"])
            #expect(Set(theirs.keys) == Set(mine.keys))
            for type in theirs.keys where type != "stepCount" { #expect(mine[type] == theirs[type], "\(type)") }
        }
    }

    @Test func aNarrowTokenSeesOnlyItsTypesAndBadAnchorsAreRefused() async throws {
        try await TestServer.with(.inMemory) { server in
            let t = server.tokens
            _ = try await server.send("POST", "/v1/patients/alice/samples", token: t.aliceDevice, json: ["samples": [Fixtures.steps(10)]])
            _ = try await server.send("POST", "/v1/patients/alice/weekly-reports", token: t.therapist,
                                      json: Fixtures.report(version: 1, tests: [("2020-06-16", 300)]))
            let all = try await server.send("GET", "/v1/patients/alice/checksums", token: t.therapist)
            #expect(Set(all.json["types"]?.objectValue?.keys ?? [:].keys) == ["stepCount", "sixMinuteWalkTestDistance"])
            let narrow = try await server.send("GET", "/v1/patients/alice/checksums", token: t.narrow)
            #expect(Set(narrow.json["types"]?.objectValue?.keys ?? [:].keys) == ["sixMinuteWalkTestDistance"])
            try await server.send("GET", "/v1/patients/alice/checksums?anchor=nonsense", token: t.therapist).expectProblem(400, "invalidAnchor")
            try await server.send("GET", "/v1/patients/bob/checksums", token: t.therapist).expectProblem(404, "notFound")
        }
    }
}
