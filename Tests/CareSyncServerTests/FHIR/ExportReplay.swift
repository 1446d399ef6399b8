import CareSyncCore
import CareSyncReferenceModel
import Foundation
import Testing
@testable import CareSyncServer

/// The property of a chain of incremental exports: after random writes, replacements and deletes, applying each
/// export's `output` then its `deleted`, in order, gives exactly the feed read from no anchor — its live samples as
/// Observations and its deleted objects — and no Observation or deletion arrives twice.
enum ExportReplay {
    /// The patients of team physio the chain exports (carol is added to the fixture's team).
    static let patients = ["alice", "carol"]

    /// Runs `rounds` rounds of random changes over both patients, each followed by a Group export from the previous
    /// one's `caresyncNextSince` (some changes land while an export runs), then a last export with no change, and checks
    /// the replay against the feed.
    static func check(_ server: TestServer, seed: UInt64, rounds: Int = 12) async throws {
        _ = try server.app.api.admin.createPatient(id: "carol", timeZone: "UTC", now: Date())
        try server.app.api.admin.addPatient("carol", toCareTeam: "physio")
        var random = SeededGenerator(seed: seed)
        var writer = RandomWriter(store: server.app.api.store)
        var exports: [ExportDownload] = []
        var since: String?
        // The last round writes nothing: its export takes what the one before it left after its position.
        for round in 0...rounds {
            for _ in 0..<(round == rounds ? 0 : Int.random(in: 5...25, using: &random)) { try writer.step(&random) }
            let path = "/fhir/R4/Group/physio/$export" + (since.map { "?_since=\($0)" } ?? "")
            let kick = try await server.kickOff(path, token: server.tokens.therapist)
            let location = try #require(kick.header("Content-Location"), "round \(round): \(kick.text)")
            // Changes while the export runs: before or after its position, never lost, never twice.
            for _ in 0..<(round == rounds ? 0 : Int.random(in: 0...6, using: &random)) { try writer.step(&random) }
            let statusPath = TestServer.path(of: location)
            let done = try await server.awaitStatus(statusPath, token: server.tokens.therapist)
            #expect(done.status == 200, "round \(round): \(done.text)")
            var download = ExportDownload(manifest: done.json, observations: [], deletedBundles: [], statusPath: statusPath)
            download.observations = try await server.lines(of: done.json["output"], token: server.tokens.therapist)
            download.deletedBundles = try await server.lines(of: done.json["deleted"], token: server.tokens.therapist)
            let next = try #require(download.nextSince, "round \(round): no caresyncNextSince")
            since = next
            exports.append(download)
        }
        var live: [String: JSONValue] = [:], deleted: Set<String> = []
        for (round, export) in exports.enumerated() {
            for observation in export.observations {
                let id = try #require(observation["id"]?.stringValue)
                #expect(live[id] == nil && !deleted.contains(id), "round \(round): Observation \(id) came twice (seed \(seed))")
                live[id] = observation
            }
            for id in export.deletedIDs {
                #expect(!deleted.contains(id), "round \(round): deletion of \(id) came twice (seed \(seed))")
                live[id] = nil
                deleted.insert(id)
            }
        }
        var expectedLive: [String: JSONValue] = [:], expectedDeleted: Set<String> = []
        for patient in patients {
            var query = ChangeQuery(patient: patient, limit: 5000, writeTimes: true)
            while true {
                let page = try server.app.api.store.changes(query)
                for sample in page.samples {
                    // As a consumer reads it: written, then parsed.
                    expectedLive[ObservationMapper.id(of: sample.uuid)] = try JSONValue.parse(FHIRWire.observation(
                        ObservationMapper.observation(of: sample, patient: patient, enteredByTherapist: false,
                                                      lastUpdated: page.writeTimes[sample.uuid])).serialized())
                }
                expectedDeleted.formUnion(page.deletedObjects.map { ObservationMapper.id(of: $0.uuid) })
                guard page.hasMore else { break }
                query.anchor = page.anchor
            }
        }
        #expect(writer.counts.deletes > 0 && writer.counts.replacements > 0, "the run made no deletion or replacement (seed \(seed))")
        #expect(Set(live.keys) == Set(expectedLive.keys), "seed \(seed)")
        #expect(live == expectedLive, "seed \(seed)")
        #expect(deleted == expectedDeleted, "seed \(seed)")
    }
}

/// Random changes straight into the store: inserts, replacements by a higher sync version, and deletions.
struct RandomWriter {
    let store: any SyncStore
    /// What it did.
    var counts = (inserts: 0, replacements: 0, deletes: 0)
    private var versions: [String: [String: Int64]] = [:]
    private var next = 0

    init(store: any SyncStore) { self.store = store }

    /// One random change to a random patient.
    mutating func step(_ random: inout SeededGenerator) throws {
        let patient = ExportReplay.patients.randomElement(using: &random)!, source = "org.example.phone"
        let keys = versions[patient, default: [:]]
        let live = try liveUUIDs(patient)
        let roll = keys.isEmpty ? 0 : Int.random(in: 0..<10, using: &random)
        switch roll {
        case 0..<5:
            next += 1
            let key = "k\(next)"
            _ = try store.upsert([input(key: key, version: 1, value: Double(next))], patient: patient, source: source, now: Date())
            versions[patient, default: [:]][key] = 1
            counts.inserts += 1
        case 5..<8:
            let key = keys.keys.sorted().randomElement(using: &random)!
            let version = keys[key]! + 1
            _ = try store.upsert([input(key: key, version: version, value: Double(version * 1000))], patient: patient, source: source, now: Date())
            versions[patient, default: [:]][key] = version
            counts.replacements += 1
        default:
            guard let uuid = live.randomElement(using: &random) else { return }
            _ = try store.delete(uuids: [uuid], syncIdentifiers: [], patient: patient, source: source, now: Date())
            counts.deletes += 1
        }
    }

    /// The patient's live sample uuids, sorted (a deleted key is free again: its next version inserts).
    private func liveUUIDs(_ patient: String) throws -> [UUID] {
        var uuids: [UUID] = [], query = ChangeQuery(patient: patient, limit: 5000)
        while true {
            let page = try store.changes(query)
            uuids += page.samples.map(\.uuid)
            guard page.hasMore else { return uuids.sorted { $0.uuidString < $1.uuidString } }
            query.anchor = page.anchor
        }
    }

    /// A heart rate keyed by `key`, its time fixed by the key's number.
    private func input(key: String, version: Int64, value: Double) -> SampleInput {
        let start = Date(timeIntervalSince1970: 1_592_474_400 + Double(Int(key.dropFirst())! * 60))
        return SampleInput(type: .heartRate, value: 60 + value.truncatingRemainder(dividingBy: 100), start: start, end: start,
                           syncIdentifier: key, syncVersion: version)
    }
}
