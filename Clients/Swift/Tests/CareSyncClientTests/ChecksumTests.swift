import Foundation
import Testing
@testable import CareSyncClient
@testable import Mirror

/// Replica checksums: the algorithm's test vectors, and replicas (in memory and SQLite) whose figures match
/// the server's after a random run.
@Suite struct ChecksumTests {
    @Test func digestsAndSumsFollowTheAPIDocumentsVectors() throws {
        let a = try #require(UUID(uuidString: "0E2D8C61-7E4B-4C1A-9C3F-6A1B2C3D4E5F"))
        let b = try #require(UUID(uuidString: "5B0F3D6E-1A2B-4C3D-8E9F-0A1B2C3D4E5F"))
        #expect(ReplicaChecksums.digest(uuid: a, syncVersion: 2) == 0x66b1_e83b_3259_7b64)
        #expect(ReplicaChecksums.digest(uuid: b, syncVersion: nil) == 0xe645_89d6_1867_5d9c)
        var figures = ReplicaChecksums()
        figures.add(type: "stepCount", digest: ReplicaChecksums.digest(uuid: a, syncVersion: 2))
        figures.add(type: "stepCount", digest: ReplicaChecksums.digest(uuid: b, syncVersion: nil))
        #expect(figures["stepCount"].count == 2 && figures["stepCount"].sumHex == "4cf772114ac0d900")
        figures.remove(type: "stepCount", uuid: a, syncVersion: 2)
        figures.remove(type: "stepCount", uuid: b, syncVersion: nil)
        #expect(figures == ReplicaChecksums(), "removing every sample should leave no figures")
    }

    @Test func theServersAnswerDecodesAndAnotherAlgorithmIsRefused() throws {
        let json = #"{"algorithm":"fnv1a64-sum","anchor":"AAAB","types":{"stepCount":{"count":2,"sum":"4cf772114ac0d900"}}}"#
        let answer = try JSONDecoder.careSync().decode(ServerChecksums.self, from: Data(json.utf8))
        #expect(answer.anchor == "AAAB" && answer.figures["stepCount"] == .init(count: 2, sum: 0x4cf7_7211_4ac0_d900))
        #expect(answer.figures.differences(from: ReplicaChecksums()) == ["stepCount"])
        let other = json.replacingOccurrences(of: "fnv1a64-sum", with: "crc32-sum")
        #expect(throws: DecodingError.self) { try JSONDecoder.careSync().decode(ServerChecksums.self, from: Data(other.utf8)) }
    }

    @Test(arguments: [1, 2, 3])
    func replicasMatchTheServerAfterARandomRun(seed: UInt64) async throws {
        let server = try LiveServer()
        let device = server.device()
        var random = SplitMix64(seed: seed)
        var run = RandomWrites()
        let sqlite = try SQLiteReplica(path: try MirrorTests.replicaPath(), patient: "alice")
        var memory = Replica()
        let store = MemoryAnchorStore()
        for _ in 0..<40 {
            switch random.next() % 5 {
            case 0, 1: _ = try await device.push(patient: "alice", samples: run.drafts(&random))
            case 2: _ = try await device.delete(patient: "alice", syncIdentifiers: run.deletions(&random))
            case 3: try await sqlite.catchUp(from: device, limit: Int(1 + random.next() % 40))
            default:
                for try await event in device.anchoredChanges(patient: "alice", store: store, limit: Int(1 + random.next() % 40)) {
                    memory.apply(event)
                }
            }
        }
        var verdicts: [[String]] = []
        try await sqlite.mirror(from: device, limit: 25) { event in
            if case .verified(_, let differing) = event { verdicts.append(differing) }
        }
        #expect(verdicts == [[]], "the running figures differed from the server's at the first verification: \(verdicts)")
        for try await event in device.anchoredChanges(patient: "alice", store: store, limit: 25) { memory.apply(event) }

        let truth = try await Story.serverSamples(device)
        #expect(truth.count > 50 && Set(truth.values.map(\.type)).count == 3, "the run wrote too little to prove much")
        #expect(try sqlite.samples() == truth)
        #expect(memory.samples == truth)
        let held = try sqlite.figures()
        let anchor = try #require(held.anchor)
        #expect(held.suspect.isEmpty)
        #expect(held.checksums == ReplicaChecksums(samples: truth.values), "the running figures are not those of the rows")
        #expect(memory.figures == held.checksums)
        #expect(try await device.checksums(patient: "alice", anchor: anchor).figures == held.checksums)
        #expect(try await device.verify(patient: "alice", anchor: try #require(await store.load()), against: memory.figures) == [])
    }
}

/// Random writes over three types: new keys, replacements (a higher version), repeats (ignored), samples
/// without a sync identifier, and deletions; deleted keys are free again.
struct RandomWrites {
    static let types = [("stepCount", "count"), ("heartRate", "count/min"), ("bodyMass", "kg")]
    /// The version each live key was last written with.
    var versions: [String: Int] = [:]

    /// 1–20 drafts of random types and keys.
    mutating func drafts(_ random: inout SplitMix64) -> [SampleDraft] {
        let base = Story.date("2020-06-01T00:00:00Z")
        var drafts: [SampleDraft] = []
        var keys: Set<String> = []
        for _ in 0..<(1 + random.next() % 20) {
            let (type, unit) = Self.types[Int(random.next() % 3)]
            let start = base.addingTimeInterval(TimeInterval(random.next() % 10_000) * 60)
            let value = Double(50 + random.next() % 100)
            if random.next() % 4 == 0 {
                drafts.append(SampleDraft(type: type, value: value, unit: unit, start: start, end: start))
                continue
            }
            let key = "\(type)-\(random.next() % 25)"
            guard keys.insert(key).inserted else { continue }   // one write per key per request
            let version = (versions[key] ?? 0) + (random.next() % 3 == 0 ? 0 : 1)   // a third repeat the stored version
            versions[key] = max(version, 1)
            drafts.append(SampleDraft(type: type, value: value, unit: unit, start: start, end: start,
                                      syncIdentifier: key, syncVersion: max(version, 1)))
        }
        return drafts
    }

    /// 1–5 live keys to delete.
    mutating func deletions(_ random: inout SplitMix64) -> [String] {
        let live = versions.keys.sorted()
        guard !live.isEmpty else { return ["none"] }
        let chosen = Set((0..<(1 + random.next() % 5)).map { _ in live[Int(random.next() % UInt64(live.count))] })
        for key in chosen { versions[key] = nil }
        return chosen.sorted()
    }
}

/// A seeded generator, so a failing run can be repeated.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
