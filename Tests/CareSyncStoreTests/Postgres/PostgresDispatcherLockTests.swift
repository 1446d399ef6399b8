import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncPostgres

/// One webhook dispatcher per database: the session advisory lock, and another instance taking over when the
/// holder's session ends (as when its process dies).
@Suite(.enabled(if: PostgresFixture.isAvailable, "CARESYNC_TEST_POSTGRES_URL names no server"))
struct PostgresDispatcherLockTests {
    @Test func oneInstanceDispatchesAndAnotherTakesOverWhenItsSessionEnds() async throws {
        let store = try PostgresFixture.makeStore()
        var first: PostgresWebhookStore? = PostgresWebhookStore(store: store)
        let second = PostgresWebhookStore(store: store)
        #expect(try first?.acquireDispatcher() == true)
        #expect(try first?.acquireDispatcher() == true)
        #expect(try second.acquireDispatcher() == false)
        first = nil  // its connection closes, as a killed process's does
        try await Eventually.until { try second.acquireDispatcher() }
        // A store of another identity (another schema) on the same server has a lock of its own.
        #expect(try PostgresWebhookStore(store: try PostgresFixture.makeStore()).acquireDispatcher())
    }

    @Test func aHolderWhoseSessionWasTerminatedLosesTheLockAndTakesItAgainWhenFree() async throws {
        let store = try PostgresFixture.makeStore()
        let holder = PostgresWebhookStore(store: store), other = PostgresWebhookStore(store: store)
        #expect(try holder.acquireDispatcher())
        // The server ends the holder's session (a restart, a failover, an operator's pg_terminate_backend).
        let admin = try PostgresConnection(url: try #require(PostgresFixture.url))
        try admin.query("""
            SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND pid <> pg_backend_pid()
              AND objid = (hashtextextended($1, 0) & 4294967295)::oid
            """, [.text("caresync.webhooks.\(store.storeID)")])
        try await Eventually.until { try other.acquireDispatcher() }
        #expect(try holder.acquireDispatcher() == false)
    }
}
