import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// A bulk export's files: where they are, how a cancel and the expiry remove them (an injected clock moves time).
@Suite struct FHIRExportLifecycleTests {
    /// The folder of an export's files, from its status path.
    static func folder(_ server: TestServer, _ download: ExportDownload) -> URL {
        server.app.api.exports.settings.directory.appendingPathComponent(String(download.statusPath.split(separator: "/").last!))
    }

    /// A file's permission bits.
    static func permissions(_ url: URL) throws -> Int? {
        let value = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions]
        return (value as? NSNumber)?.intValue ?? (value as? Int)
    }

    @Test func filesLiveBesideTheDatabaseReadableByTheServerOnly() async throws {
        try await TestServer.with(.inMemory) { server in
            try await FHIREndpointTests.seed(server)
            let download = try await server.export("/fhir/R4/Patient/alice/$export", token: server.tokens.therapist)
            let folder = Self.folder(server, download)
            #expect(folder.deletingLastPathComponent().path == server.directory.path("test.sqlite") + "-exports")
            #expect(try Self.permissions(folder.appendingPathComponent("observation-1.ndjson")) == 0o600)
            #expect(try Self.permissions(folder) == 0o700)
        }
    }

    @Test func aCancelAnswers202AndRemovesTheStatusAndTheFiles() async throws {
        try await TestServer.with(.inMemory) { server in
            try await FHIREndpointTests.seed(server)
            let t = server.tokens
            let download = try await server.export("/fhir/R4/Patient/alice/$export", token: t.therapist)
            let file = TestServer.path(of: try #require(download.manifest["output"]?[0]?["url"]?.stringValue))
            let folder = Self.folder(server, download)
            #expect(FileManager.default.fileExists(atPath: folder.path))
            let cancel = try await server.send("DELETE", download.statusPath, token: t.therapist)
            #expect(cancel.status == 202 && cancel.json["resourceType"] == "OperationOutcome")
            #expect(try await server.fhir(download.statusPath, token: t.therapist).status == 404)
            #expect(try await server.fhir(file, token: t.therapist).status == 404)
            #expect(try await server.send("DELETE", download.statusPath, token: t.therapist).status == 404)
            #expect(!FileManager.default.fileExists(atPath: folder.path))
        }
    }

    @Test func aCancelledRunStopsAtItsNextPageAndLeavesNoFile() async throws {
        try await TestServer.with(.inMemory) { server in
            try await FHIREndpointTests.seed(server)
            let api = server.app.api
            let principal = try await api.authenticate(authorization: "Bearer \(server.tokens.therapist)")
            let directory = api.exports.settings.directory.appendingPathComponent("cancelled-run")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let job = ExportJob(id: "cancelled-run", principal: principal, patients: ["alice"], auditPatient: "alice", types: nil,
                                since: .none, request: "", base: "", directory: directory, created: Date())
            try api.exports.store.insertExport(job.record(.queued, now: Date()), patients: job.patients)
            job.cancel()
            let run = ExportRun(reader: api.reader, audit: api.gate.audit, access: api.access, records: api.exports.store,
                                clock: api.clock, settings: api.exports.settings, logger: api.logger)
            await run.run(job)
            #expect(try api.exports.store.export(id: job.id)?.phase != .completed, "a cancelled run completed")
            #expect(!FileManager.default.fileExists(atPath: directory.path))
            let audit = try await server.send("GET", "/v1/audit?patient=alice", token: server.tokens.admin)
            #expect(audit.json["records"]?.arrayValue?.contains { $0["action"] == "fhir.export.read" } == false)
        }
    }

    /// A run reads a patient only while its caller reaches them: taken off the caller's care team after the kick-off,
    /// the patient's pages are not read (the export completes without them; the audit record counts nothing read).
    @Test(arguments: [false, true])
    func aRunReadsNothingOfAPatientTakenOffTheCallersTeam(removed: Bool) async throws {
        try await TestServer.with(.inMemory) { server in
            try await FHIREndpointTests.seed(server)
            let api = server.app.api
            let principal = try await api.authenticate(authorization: "Bearer \(server.tokens.therapist)")
            #expect(try await server.send("GET", "/v1/patients/alice/changes", token: server.tokens.therapist).status == 200)
            let id = removed ? "removed-run" : "kept-run"
            let directory = api.exports.settings.directory.appendingPathComponent(id)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let job = ExportJob(id: id, principal: principal, patients: ["alice"], auditPatient: "alice", types: nil,
                                since: .none, request: "", base: "", directory: directory, created: Date())
            try api.exports.store.insertExport(job.record(.queued, now: Date()), patients: job.patients)
            if removed {
                try api.admin.removePatient("alice", fromCareTeam: "physio", now: Date())
                api.notifier.reachEnded("alice")
            }
            let run = ExportRun(reader: api.reader, audit: api.gate.audit, access: api.access, records: api.exports.store,
                                clock: api.clock, settings: api.exports.settings, logger: api.logger)
            await run.run(job)
            #expect(try api.exports.store.export(id: job.id)?.phase == .completed)
            let audit = try await server.send("GET", "/v1/audit?patient=alice", token: server.tokens.admin)
            let read = try #require(audit.json["records"]?.arrayValue?.first { $0["action"] == "fhir.export.read" }?["count"]?.numberValue)
            #expect((read == 0) == removed, "\(read) Observations read")
            let lines = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasPrefix("observation") }
                .map { try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8).split(separator: "\n").count }
                .reduce(0, +)
            #expect(lines == Int(read), "the files hold what the audit record counts")
        }
    }

    /// A finished export's manifest and files are served only while the caller reaches every patient it read: a patient
    /// taken off the caller's care team makes both 404, and adding the patient again serves them again.
    @Test func aFinishedExportsFilesAreRefusedOnceAPatientItReadIsTakenOff() async throws {
        try await TestServer.with(.inMemory) { server in
            try await FHIREndpointTests.seed(server)
            let t = server.tokens
            let download = try await server.export("/fhir/R4/Group/physio/$export", token: t.therapist)
            let file = TestServer.path(of: try #require(download.manifest["output"]?[0]?["url"]?.stringValue))
            #expect(try await server.fhir(file, token: t.therapist).status == 200)
            #expect(try await server.send("DELETE", "/v1/care-teams/physio/patients/alice", token: t.admin).status == 200)
            let refused = try await server.fhir(file, token: t.therapist)
            #expect(refused.status == 404 && refused.text.contains("no longer reach"), "\(refused.text)")
            let status = try await server.fhir(download.statusPath, token: t.therapist)
            #expect(status.status == 404 && status.text.contains("no longer reach") && !status.text.contains(file), "\(status.text)")
            try server.app.api.admin.addPatient("alice", toCareTeam: "physio")
            #expect(try await server.fhir(download.statusPath, token: t.therapist).status == 200)
            #expect(try await server.fhir(file, token: t.therapist).status == 200)
        }
    }

    @Test func filesExpireAfterTheConfiguredTimeAndTheSweepRemovesThem() async throws {
        let clock = ManualClock(running: true)
        try await TestServer.with(.inMemory, clock: clock.serverClock,
                                  configure: { $0.exportExpiryMinutes = 30 }) { server in
            try await FHIREndpointTests.seed(server)
            let t = server.tokens, exports = server.app.api.exports
            let download = try await server.export("/fhir/R4/Patient/alice/$export", token: t.therapist)
            let file = TestServer.path(of: try #require(download.manifest["output"]?[0]?["url"]?.stringValue))
            let folder = Self.folder(server, download)
            clock.advance(by: 29 * 60)
            #expect(try exports.sweep(now: exports.clock.now()) == 0)
            #expect(try await server.fhir(download.statusPath, token: t.therapist).status == 200)
            #expect(try await server.fhir(file, token: t.therapist).status == 200)
            clock.advance(by: 2 * 60)
            // Past the expiry the export is gone at once, before any sweep; the sweep then removes its files.
            #expect(try await server.fhir(download.statusPath, token: t.therapist).status == 404)
            #expect(try await server.fhir(file, token: t.therapist).status == 404)
            #expect(FileManager.default.fileExists(atPath: folder.path))
            #expect(try exports.sweep(now: exports.clock.now()) == 1)
            #expect(!FileManager.default.fileExists(atPath: folder.path))
        }
    }

    @Test func theSweepRemovesAFolderNoExportNamesOncePastItsGrace() async throws {
        try await TestServer.with(.inMemory) { server in
            let exports = server.app.api.exports
            let leftover = exports.settings.directory.appendingPathComponent(UUID().uuidString.lowercased())
            let other = exports.settings.directory.appendingPathComponent("not-an-export")
            for folder in [leftover, other] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
            #expect(try exports.sweep(now: Date()) == 0)
            #expect(try exports.sweep(now: Date().addingTimeInterval(exports.settings.unnamedFolderGrace + 1)) == 1)
            #expect(!FileManager.default.fileExists(atPath: leftover.path) && FileManager.default.fileExists(atPath: other.path))
        }
    }
}
