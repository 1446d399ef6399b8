import Foundation
import Testing
@testable import CareSyncServer

/// A chain of incremental Group exports replays to exactly the feed from no anchor, deletions included, nothing twice
/// (SQLite; `PostgresExportReplayTests` runs the same chain on PostgreSQL).
@Suite struct FHIRExportReplayTests {
    @Test(arguments: [1, 2, 3] as [UInt64]) func aChainOfExportsReplaysToTheFeed(seed: UInt64) async throws {
        try await TestServer.with(.inMemory) { server in
            try await ExportReplay.check(server, seed: seed)
        }
    }
}

/// The chain of `FHIRExportReplayTests` on PostgreSQL, when `CARESYNC_TEST_POSTGRES_URL` names a server
/// (scripts/ci-postgres.sh); skipped otherwise.
@Suite(.enabled(if: postgresTestServerURL != nil, "CARESYNC_TEST_POSTGRES_URL names no server"))
struct PostgresExportReplayTests {
    @Test(arguments: [4, 5] as [UInt64]) func aChainOfExportsReplaysToTheFeedOnPostgreSQL(seed: UInt64) async throws {
        let url = try PostgresServerTests.freshSchemaURL()
        try await TestServer.with(.inMemory, configure: { $0.databaseURL = url }) { server in
            try await ExportReplay.check(server, seed: seed)
        }
    }
}
