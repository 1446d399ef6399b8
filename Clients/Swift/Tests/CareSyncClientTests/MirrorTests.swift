import Foundation
import Testing
@testable import CareSyncClient
@testable import Mirror

/// `caresync-agent mirror`: a SQLite replica of a patient's feed, each page with its anchor in one transaction.
@Suite struct MirrorTests {
    /// The agent binary: `$CARESYNC_AGENT_BIN`, else this package's `.build/debug/caresync-agent`.
    static var agent: URL {
        if let path = ProcessInfo.processInfo.environment["CARESYNC_AGENT_BIN"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return LiveServer.repository.appendingPathComponent("Clients/Swift/.build/debug/caresync-agent")
    }

    static func replicaPath() throws -> String {
        let dir = try ScratchFolder.make("replica")
        return dir.appendingPathComponent("replica.sqlite").path
    }

    @Test func theReplicaFollowsInsertsReplacementsAndDeletions() async throws {
        let server = try LiveServer()
        let device = server.device()
        _ = try await device.push(patient: "alice", samples: Story.steps(300))
        let replica = try SQLiteReplica(path: try Self.replicaPath(), patient: "alice")
        try await replica.mirror(from: device, limit: 100)
        #expect(try replica.samples() == (try await Story.serverSamples(device)))

        _ = try await device.delete(patient: "alice", syncIdentifiers: (0..<50).map { "steps-\($0)" })
        _ = try await device.push(patient: "alice", samples: Story.steps(10, version: 2))   // steps-0…9 again: deleted keys are free
        _ = try await device.push(patient: "alice", samples: Array(Story.steps(60, version: 3)[50..<60]))   // steps-50…59 replaced
        try await replica.mirror(from: device, limit: 100)
        let server2 = try await Story.serverSamples(device)
        #expect(server2.count == 260)
        #expect(try replica.samples() == server2)
    }

    @Test func aKilledAgentResumesWithoutLossOrDuplicate() async throws {
        let server = try LiveServer()
        let device = server.device()
        _ = try await device.push(patient: "alice", samples: Story.steps(5_000))
        let path = try Self.replicaPath()

        let process = Process()
        process.executableURL = Self.agent
        process.arguments = ["mirror", "--patient", "alice", "--into", path, "--watch", "--page-size", "20", "--quiet"]
        process.environment = LiveServer.inherited.merging(["CARESYNC_URL": server.url.absoluteString, "CARESYNC_TOKEN": server.deviceToken]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let reader = try SQLiteReplica(path: path, patient: "alice")
        // The agent runs in short bursts and is looked at while stopped (SIGSTOP), so it cannot apply the rest of the
        // feed between the look that finds its first page and the kill: a poll that slept through the whole mirror
        // on a loaded machine once saw nothing until it had ended.
        kill(process.processIdentifier, SIGSTOP)
        for _ in 0..<5_000 {
            if ((try? reader.count()) ?? 0) > 0 { break }
            kill(process.processIdentifier, SIGCONT)
            usleep(2_000)
            kill(process.processIdentifier, SIGSTOP)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let atKill = try reader.samples().count
        #expect(atKill > 0 && atKill % 20 == 0, "the replica should stop at a page boundary (\(atKill))")
        #expect(atKill < 5_000, "the kill came after the whole feed was applied")

        try await reader.mirror(from: device, limit: 500)
        let held = try reader.samples()
        #expect(held.count == 5_000)
        #expect(held == (try await Story.serverSamples(device)))
    }

    @Test func aReplicaPointedAtAnotherServerResetsAndVerifiesWithoutARepair() async throws {
        let first = try LiveServer(), second = try LiveServer()
        _ = try await first.device().push(patient: "alice", samples: Story.steps(40, prefix: "first"))
        _ = try await second.device().push(patient: "alice", samples: Story.steps(25, prefix: "second"))
        let replica = try SQLiteReplica(path: try Self.replicaPath(), patient: "alice")
        try await replica.mirror(from: first.device())
        try Self.markSuspect(replica)   // a row changed in place before the move: the reset forgets it too

        var events: [String] = []
        try await replica.mirror(from: second.device(), limit: 10) { event in
            switch event {
            case .applied(.reset(let problem)): events.append(problem.code)
            case .applied: break
            case .verified(_, let differing): events.append("verified \(differing)")
            case .repaired(let types, _): events.append("repaired \(types)")
            }
        }
        #expect(events == ["invalidAnchor", "verified []"])
        let truth = try await Story.serverSamples(second.device())
        #expect(try replica.samples() == truth)
        #expect(try replica.figures().checksums == ReplicaChecksums(samples: truth.values))
    }

    @Test func bloodPressurePairsKeepBothValues() async throws {
        let server = try LiveServer()
        let device = server.device()
        let at = Story.date("2020-06-18T15:00:00Z")
        let pushed = try await device.push(patient: "alice", samples: [
            .bloodPressure(systolic: 120, diastolic: 80, start: at, end: at, syncIdentifier: "cuff-1", syncVersion: 1),
            .bloodPressure(systolic: 16, diastolic: 10.5, unit: "kPa", start: at.addingTimeInterval(60), end: at.addingTimeInterval(60)),
        ])
        #expect(pushed.count(.inserted) == 2)
        let replica = try SQLiteReplica(path: try Self.replicaPath(), patient: "alice")
        try await replica.mirror(from: device)
        let held = try replica.samples()
        #expect(held == (try await Story.serverSamples(device)))
        #expect(held.values.contains { $0.components == ["bloodPressureSystolic": 120, "bloodPressureDiastolic": 80] && $0.value == 120 })
    }

    @Test func aReplicaFromBeforeChecksumsGetsItsFiguresFromItsRowsAndItsPairsAgain() async throws {
        let server = try LiveServer()
        let device = server.device()
        let at = Story.date("2020-06-18T15:00:00Z")
        _ = try await device.push(patient: "alice", samples: Story.steps(120)
                                  + [.bloodPressure(systolic: 120, diastolic: 80, start: at, end: at, syncIdentifier: "cuff-1", syncVersion: 1)])
        let path = try Self.replicaPath()
        try await SQLiteReplica(path: path, patient: "alice").mirror(from: device, limit: 50)
        // Back to the first schema: no digest or components columns, no figures, no triggers, user_version 0.
        let old = try SQLiteDatabase(path: path)
        for sql in ["DROP TRIGGER samples_checksum_insert", "DROP TRIGGER samples_checksum_delete", "DROP TRIGGER samples_checksum_update",
                    "DROP TABLE replica_checksums", "DROP TABLE repair_samples", "ALTER TABLE samples DROP COLUMN digest",
                    "ALTER TABLE samples DROP COLUMN components", "PRAGMA user_version = 0"] {
            try old.execute(sql)
        }

        let replica = try SQLiteReplica(path: path, patient: "alice")
        let truth = try await Story.serverSamples(device)
        let figures = try replica.figures()
        #expect(figures.checksums == ReplicaChecksums(samples: truth.values), "the figures are not those of the rows")
        #expect(figures.suspect == ["bloodPressure"], "pairs stored without their components should be read again")
        _ = try await device.delete(patient: "alice", syncIdentifiers: ["steps-3"])
        var events: [String] = []
        try await replica.mirror(from: device) { event in
            switch event {
            case .applied: break
            case .verified(_, let differing): events.append("verified \(differing)")
            case .repaired(let types, _): events.append("repaired \(types)")
            }
        }
        #expect(events == ["verified [\"bloodPressure\"]", "repaired [\"bloodPressure\"]", "verified []"])
        #expect(try replica.samples() == (try await Story.serverSamples(device)))
    }

    /// Changes a row's version in place, which marks its type suspect.
    static func markSuspect(_ replica: SQLiteReplica) throws {
        try replica.database.execute("UPDATE samples SET sync_version = sync_version + 1 WHERE rowid = (SELECT min(rowid) FROM samples)")
        #expect(try replica.figures().suspect == ["stepCount"])
    }

    @Test func aReplicaOfAnotherPatientIsRefused() throws {
        let path = try Self.replicaPath()
        _ = try SQLiteReplica(path: path, patient: "alice")
        #expect(throws: SQLiteError.self) { try SQLiteReplica(path: path, patient: "bob") }
    }
}
