import Foundation
import Testing
@testable import CareSyncClient
@testable import Mirror

/// A corrupted replica.sqlite: the verification after catching up finds the one type that differs, and only
/// that type is downloaded again.
@Suite struct ReplicaRepairTests {
    /// Ways to damage one heart-rate row (or its figures), from a second connection as any other program would.
    enum Corruption: String, CaseIterable {
        case rowDeleted, versionChangedInPlace, rowAdded, figuresChanged

        /// The SQL, with the uuid of one stored heart-rate sample.
        func sql(victim: String) -> (String, [SQLiteDatabase.Value]) {
            let row: [SQLiteDatabase.Value] = [.text(victim)]
            switch self {
            case .rowDeleted: return ("DELETE FROM samples WHERE uuid = ?", row)
            case .versionChangedInPlace: return ("UPDATE samples SET sync_version = sync_version + 1 WHERE uuid = ?", row)
            case .rowAdded:
                // A phantom with a well-formed digest: only the count can give it away.
                let uuid = UUID()
                let digest = Int64(bitPattern: ReplicaChecksums.digest(uuid: uuid, syncVersion: 1))
                return ("""
                    INSERT INTO samples SELECT ?, type, value, unit, start, "end", 'phantom', 1, source, metadata, ?, components, component_units
                    FROM samples WHERE uuid = ?
                    """, [.text(uuid.uuidString), .integer(digest)] + row)
            case .figuresChanged: return ("UPDATE replica_checksums SET sum_low = sum_low + 1 WHERE type = 'heartRate'", [])
            }
        }
    }

    /// A server with 300 step counts, 40 heart rates and 20 body masses, and a replica of them, verified.
    static func mirrored() async throws -> (LiveServer, CareSyncClient, String) {
        let server = try LiveServer()
        let device = server.device()
        let start = Story.date("2020-06-16T10:00:00Z")
        let rates = (0..<40).map { i in
            SampleDraft(type: "heartRate", value: Double(60 + i), unit: "count/min", start: start.addingTimeInterval(Double(i) * 60),
                        end: start.addingTimeInterval(Double(i) * 60), syncIdentifier: "hr-\(i)", syncVersion: 1 + i % 3)
        }
        let masses = (0..<20).map { i in
            SampleDraft(type: "bodyMass", value: 70 + Double(i) / 10, unit: "kg", start: start.addingTimeInterval(Double(i) * 86_400),
                        end: start.addingTimeInterval(Double(i) * 86_400))
        }
        _ = try await device.push(patient: "alice", samples: Story.steps(300) + rates + masses)
        let path = try MirrorTests.replicaPath()
        try await SQLiteReplica(path: path, patient: "alice").mirror(from: device, limit: 100)
        return (server, device, path)
    }

    /// Marks every sample of another type than heart rate with metadata the server never sent (metadata is
    /// not checksummed, so the figures stay right); a row the repair rewrote would lose the mark.
    static func markOtherRows(_ path: String) throws {
        try SQLiteDatabase(path: path).execute(#"UPDATE samples SET metadata = '{"mark":true}' WHERE type <> 'heartRate'"#)
    }

    /// How many rows of other types than heart rate still carry the mark, and how many there are.
    static func markedOtherRows(_ path: String) throws -> [[SQLiteDatabase.Value]] {
        try SQLiteDatabase(path: path).execute(#"SELECT count(*) FILTER (WHERE metadata = '{"mark":true}'), count(*) FROM samples WHERE type <> 'heartRate'"#)
    }

    /// Damages one heart-rate row of the replica at `path` from a connection of its own.
    static func corrupt(_ path: String, _ corruption: Corruption) throws {
        let database = try SQLiteDatabase(path: path)
        guard case .text(let victim)? = try database.execute("SELECT uuid FROM samples WHERE type = 'heartRate' ORDER BY uuid LIMIT 1").first?.first
        else { throw ServerError("no heart rate in the replica") }
        let (sql, values) = corruption.sql(victim: victim)
        try database.execute(sql, values)
    }

    @Test(arguments: Corruption.allCases)
    func aCorruptedRowIsFoundAndOnlyItsTypeIsDownloadedAgain(corruption: Corruption) async throws {
        let (server, device, path) = try await Self.mirrored()
        try Self.markOtherRows(path)
        try Self.corrupt(path, corruption)
        let replica = try SQLiteReplica(path: path, patient: "alice")
        #expect(try replica.samples() != (try await Story.serverSamples(device)) || corruption == .figuresChanged)

        var events: [String] = []
        try await replica.mirror(from: device, limit: 100) { event in
            switch event {
            case .applied: events.append("applied")
            case .verified(_, let differing): events.append("verified \(differing)")
            case .repaired(let types, let samples): events.append("repaired \(types) \(samples)")
            }
        }
        #expect(events == ["verified [\"heartRate\"]", "repaired [\"heartRate\"] 40", "verified []"])
        #expect(try Self.markedOtherRows(path) == [[.integer(320), .integer(320)]], "rows of types that matched were rewritten")
        let unmarked = try replica.samples().mapValues { sample -> Sample in
            var sample = sample
            sample.metadata["mark"] = nil
            return sample
        }
        #expect(unmarked == (try await Story.serverSamples(device)))
        #expect(try replica.figures().suspect.isEmpty)
        _ = server
    }

    @Test func theAgentRepairsAndSaysWhichType() async throws {
        let (server, device, path) = try await Self.mirrored()
        try Self.corrupt(path, .rowDeleted)
        let (status, stdout, stderr) = try AgentRun.run(["mirror", "--patient", "alice", "--into", path], server: server)
        #expect(status == 0, "\(stderr)")
        #expect(stdout.contains("360 samples") && stdout.contains("repaired heartRate") && stdout.contains("verified against the server's checksums"),
                "\(stdout)")
        #expect(stderr.contains("differs from the server in heartRate"), "\(stderr)")
        #expect(try SQLiteReplica(path: path, patient: "alice").samples() == (try await Story.serverSamples(device)))
    }

    @Test func aWatchingAgentVerifiesAgainAndRepairs() async throws {
        let (server, device, path) = try await Self.mirrored()
        let truth = try await Story.serverSamples(device)
        func verifications() async throws -> Double { try await server.metric("caresync_http_requests_total", matching: "/checksums") }
        let before = try await verifications()
        let agent = try AgentRun.start(["mirror", "--patient", "alice", "--into", path, "--watch", "--verify-every", "1", "--quiet"], server: server)
        defer { agent.terminate(); agent.waitUntilExit() }
        let replica = try SQLiteReplica(path: path, patient: "alice")
        // Corrupt only after the agent's first verification, so that a later one must find it.
        #expect(try await eventually { try await verifications() > before }, "the agent never verified")
        try Self.corrupt(path, .rowDeleted)
        #expect(try replica.samples().count == truth.count - 1)
        // Nothing is written to the server: only the periodic verification can bring the row back.
        #expect(try await eventually { try replica.samples() == truth }, "the watching agent did not repair the replica")
        #expect(agent.isRunning)
    }
}
