import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// Bulk exports with two instances over one SQLite file and one export folder, as behind a load balancer without
/// affinity: the records live in the database, so either instance answers a status URL, a file or a cancel, a
/// finished export outlives the instance that ran it, and one whose instance was lost is answered as failed.
@Suite struct FHIRExportAcrossInstancesTests {
    /// A FHIR request to the instance on `port`.
    static func send(_ port: Int, _ method: String, _ path: String, token: String) async throws -> TestReply {
        try await TestHTTPClient.send(port: port, method: method, path: path,
                                      headers: [("Authorization", "Bearer \(token)"), ("Prefer", "respond-async")])
    }

    @Test func eitherInstanceAnswersAnExportAndAFinishedOneOutlivesItsInstance() async throws {
        try await TestServer.with(.live) { one in
            try await FHIREndpointTests.seed(one)
            let t = one.tokens
            var finished = "", file = ""
            try await TestServer.withInstance(one.app.configuration) { _, port in
                // Started on two, polled and downloaded on one.
                let kick = try await Self.send(port, "GET", "/fhir/R4/Patient/alice/$export", token: t.therapist)
                #expect(kick.status == 202, "\(kick.text)")
                finished = TestServer.path(of: try #require(kick.header("Content-Location")))
                let done = try await one.awaitStatus(finished, token: t.therapist)
                #expect(done.status == 200, "\(done.text)")
                #expect(try await one.lines(of: done.json["output"], token: t.therapist).count == 15)
                file = TestServer.path(of: try #require(done.json["output"]?[0]?["url"]?.stringValue))
                // Another token is refused on both, as if nothing existed.
                #expect(try await Self.send(port, "GET", finished, token: t.otherTherapist).status == 404)
                #expect(try await one.fhir(finished, token: t.otherTherapist).status == 404)

                // Started on one, cancelled on two: gone on both, its folder removed.
                let other = try await one.export("/fhir/R4/Patient/alice/$export", token: t.therapist)
                let folder = FHIRExportLifecycleTests.folder(one, other)
                #expect(FileManager.default.fileExists(atPath: folder.path))
                #expect(try await Self.send(port, "DELETE", other.statusPath, token: t.therapist).status == 202)
                #expect(try await one.fhir(other.statusPath, token: t.therapist).status == 404)
                #expect(try await Self.send(port, "GET", other.statusPath, token: t.therapist).status == 404)
                #expect(!FileManager.default.fileExists(atPath: folder.path))
            }
            // Instance two has stopped: the export it ran is still answered, files included.
            #expect(try await one.fhir(finished, token: t.therapist).status == 200)
            let download = try await one.fhir(file, token: t.therapist)
            #expect(download.status == 200 && download.text.split(separator: "\n").count == 15)
        }
    }

    @Test func anExportWhoseInstanceStoppedBeatingIsAnsweredAsFailed() async throws {
        let clock = ManualClock()  // frozen between moves: only `advance` ages the heartbeat, however slow the machine
        try await TestServer.with(.live, clock: clock.serverClock) { server in
            let api = server.app.api
            let principal = try await api.authenticate(authorization: "Bearer \(server.tokens.therapist)")
            // What an instance killed while running an export leaves: its record, beaten last at the kick-off.
            let lost = BulkExportRecord(id: UUID().uuidString.lowercased(), ownerTokenID: principal.tokenID, auditPatient: "alice",
                                        patientCount: 1, request: "http://127.0.0.1/fhir/R4/Patient/alice/$export",
                                        base: "http://127.0.0.1/fhir/R4", phase: .running, createdAt: clock.serverClock.now(),
                                        heartbeatAt: clock.serverClock.now())
            try api.exports.store.insertExport(lost, patients: ["alice"])
            let path = "/fhir/R4/bulk-export/\(lost.id)"
            clock.advance(by: api.exports.settings.staleAfter - 1)
            #expect(try await server.fhir(path, token: server.tokens.therapist).status == 202)
            clock.advance(by: 2)  // past it, whichever way the stored beat rounded to its millisecond
            let failed = try await server.fhir(path, token: server.tokens.therapist)
            #expect(failed.status == 500 && failed.outcomeIssue == "exception", "\(failed.text)")
            #expect(try api.exports.store.export(id: lost.id)?.phase == .failed)
            // Failed, it expires as any finished export does.
            clock.advance(by: api.exports.settings.expiry + 1)
            #expect(try await server.fhir(path, token: server.tokens.therapist).status == 404)
        }
    }

    @Test func theSweepEndsALostInstancesExportThatNobodyPolls() async throws {
        let clock = ManualClock()
        try await TestServer.with(.live, clock: clock.serverClock) { server in
            let exports = server.app.api.exports
            let lost = BulkExportRecord(id: UUID().uuidString.lowercased(), ownerTokenID: "gone", auditPatient: "alice",
                                        patientCount: 1, request: "", base: "", phase: .running, createdAt: clock.serverClock.now(),
                                        heartbeatAt: clock.serverClock.now())
            try exports.store.insertExport(lost, patients: ["alice"])
            let folder = exports.settings.directory.appendingPathComponent(lost.id, isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            clock.advance(by: exports.settings.staleAfter + 1)
            try exports.sweep(now: clock.serverClock.now())
            #expect(try exports.store.export(id: lost.id)?.phase == .failed)
            clock.advance(by: exports.settings.expiry + 1)
            try exports.sweep(now: clock.serverClock.now())
            #expect(try exports.store.export(id: lost.id) == nil)
            #expect(!FileManager.default.fileExists(atPath: folder.path))
        }
    }

    @Test func erasingAPatientEndsEveryExportThatReadsThem() async throws {
        let clock = ManualClock(running: true)
        try await TestServer.with(.live, clock: clock.serverClock) { server in
            try await FHIREndpointTests.seed(server)
            let t = server.tokens
            let own = try await server.export("/fhir/R4/Patient/alice/$export", token: t.therapist)
            let group = try await server.export("/fhir/R4/Group/physio/$export", token: t.therapist)
            let file = TestServer.path(of: try #require(own.manifest["output"]?[0]?["url"]?.stringValue))
            let folders = [FHIRExportLifecycleTests.folder(server, own), FHIRExportLifecycleTests.folder(server, group)]
            let erase = try await server.send("DELETE", "/v1/patients/alice", token: t.admin, headers: [("Confirm-Erase", "alice")])
            #expect(erase.status == 200, "\(erase.text)")
            for path in [own.statusPath, group.statusPath, file] {
                #expect(try await server.fhir(path, token: t.therapist).status == 404, "\(path)")
            }
            // The folders go with the next sweep once past the grace for a folder being made.
            clock.advance(by: server.app.api.exports.settings.unnamedFolderGrace + 1)
            try server.app.api.exports.forget(patient: nil, now: server.app.api.clock.now())
            for folder in folders { #expect(!FileManager.default.fileExists(atPath: folder.path), "\(folder.lastPathComponent)") }
        }
    }
}
