import CareSyncCore
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncPostgres

/// Job leases on PostgreSQL (`PostgresJobLeases`), with two instances' stores on one database: one instance holds
/// each job's lease, different jobs may be held by different instances, and another instance takes a lease when
/// its holder's session ends (its store closes, its process dies, the server ends the session).
@Suite(.enabled(if: PostgresFixture.isAvailable, "CARESYNC_TEST_POSTGRES_URL names no server"))
struct PostgresJobLeasesTests {
    /// Two instances' stores on one migrated database.
    static func twoInstances() throws -> (PostgresSyncStore, PostgresSyncStore) {
        let one = try PostgresFixture.makeStore()
        return (one, try secondInstance(of: one))
    }

    /// Another instance's store on `store`'s database, with connections of its own.
    static func secondInstance(of store: PostgresSyncStore) throws -> PostgresSyncStore {
        try PostgresSyncStore(database: try PostgresDatabase(store.database.configuration))
    }

    @Test func exactlyOneInstanceHoldsEachJobsLease() throws {
        let (one, two) = try Self.twoInstances()
        for job in LeasedJob.all {
            let asked = [try one.acquireLease(job), try two.acquireLease(job), try one.acquireLease(job), try two.acquireLease(job)]
            #expect(asked == [true, false, true, false], "\(job)")
        }
    }

    @Test func differentJobsMayBeHeldByDifferentInstances() throws {
        let (one, two) = try Self.twoInstances()
        #expect(try one.acquireLease(.webhooks))
        #expect(try two.acquireLease(.retention) && two.acquireLease(.idempotencyExpiry))
        #expect(try !one.acquireLease(.retention) && !one.acquireLease(.idempotencyExpiry))
        #expect(try !two.acquireLease(.webhooks))
    }

    @Test func anotherInstanceTakesTheLeasesWhenTheHoldersStoreCloses() async throws {
        var holder: PostgresSyncStore? = try PostgresFixture.makeStore()
        let two = try Self.secondInstance(of: holder!)
        for job in LeasedJob.all {
            #expect(try holder?.acquireLease(job) == true && !two.acquireLease(job), "\(job)")
        }
        holder = nil  // its lease connection closes, as a killed process's does
        for job in LeasedJob.all { try await Eventually.until { try two.acquireLease(job) } }
        // A store of another identity (another schema) on the same server has leases of its own.
        #expect(try PostgresFixture.makeStore().acquireLease(.webhooks))
    }

    @Test func aHolderWhoseSessionWasTerminatedLosesItsLeasesAndTakesThemAgainWhenFree() async throws {
        let (holder, other) = try Self.twoInstances()
        #expect(try holder.acquireLease(.webhooks) && holder.acquireLease(.retention))
        // The server ends the holder's lease session (a restart, a failover, an operator's pg_terminate_backend).
        let admin = try PostgresConnection(url: try #require(PostgresFixture.url))
        try admin.query("""
            SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND pid <> pg_backend_pid()
              AND objid = (hashtextextended($1, 0) & 4294967295)::oid
            """, [.text(PostgresJobLeases.key(.webhooks, storeID: holder.storeID))])
        try await Eventually.until { try other.acquireLease(.webhooks) }
        #expect(try other.acquireLease(.retention), "the session that ended held the retention lease too")
        #expect(try !holder.acquireLease(.webhooks) && !holder.acquireLease(.retention))
    }
}
