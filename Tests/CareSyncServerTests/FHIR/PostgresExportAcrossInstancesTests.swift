import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncServer

/// Bulk exports with two instances on one PostgreSQL database (`TwoInstances`): kick-off on one, status and files on
/// the other, cancel on either. Runs when `CARESYNC_TEST_POSTGRES_URL` names a server, skipped otherwise.
@Suite(.enabled(if: postgresTestServerURL != nil, "CARESYNC_TEST_POSTGRES_URL names no server"))
struct PostgresExportAcrossInstancesTests {
    @Test func anExportStartedOnOneInstanceIsPolledDownloadedAndCancelledOnTheOther() async throws {
        try await TwoInstances.with { servers in
            try await FHIREndpointTests.seed(servers.one)
            let t = servers.tokens, prefer = [("Prefer", "respond-async")]
            let kick = try await servers.send(1, "GET", "/fhir/R4/Patient/alice/$export", token: t.therapist, headers: prefer)
            #expect(kick.status == 202, "\(kick.text)")
            let status = TestServer.path(of: try #require(kick.header("Content-Location")))
            var done = try await servers.send(2, "GET", status, token: t.therapist)
            for _ in 0..<5_000 where done.status == 202 {
                try await Task.sleep(for: .milliseconds(2))
                done = try await servers.send(2, "GET", status, token: t.therapist)
            }
            #expect(done.status == 200, "\(done.text)")
            let file = TestServer.path(of: try #require(done.json["output"]?[0]?["url"]?.stringValue))
            let lines = try await servers.send(2, "GET", file, token: t.therapist)
            #expect(lines.status == 200 && lines.text.split(separator: "\n").count == 15, "\(lines.status)")
            #expect(try await servers.send(2, "DELETE", status, token: t.therapist).status == 202)
            for instance in [1, 2] {
                #expect(try await servers.send(instance, "GET", status, token: t.therapist).status == 404)
                #expect(try await servers.send(instance, "GET", file, token: t.therapist).status == 404)
            }
        }
    }
}
