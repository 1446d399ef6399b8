import CareSyncCore
import CareSyncReferenceModel
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncPostgres

/// Several instances (each its own pool and writer connection) on one PostgreSQL database, writing at once.
@Suite(.enabled(if: PostgresFixture.isAvailable, "CARESYNC_TEST_POSTGRES_URL names no server"))
struct PostgresConcurrencyTests {
    static let patient = "patient-concurrent"
    static let t0 = Date(timeIntervalSince1970: 1_592_474_400)

    /// `count` stores on one freshly migrated schema, as `count` CareSync instances would open it; the
    /// connections of instance i are named `<name>-i` in pg_stat_activity.
    static func instances(_ count: Int, ordering: ChangeOrdering = .headRow, name: String = "instance") throws -> [PostgresSyncStore] {
        var configuration = try PostgresFixture.makeConfiguration()
        configuration.applicationName = "\(name)-0"
        let first = try PostgresDatabase(configuration)
        try PostgresMigrator(directory: PostgresFixture.migrationsURL).migrate(first)
        return try [PostgresSyncStore(database: first, ordering: ordering)] + (1..<count).map { i in
            configuration.applicationName = "\(name)-\(i)"
            return try PostgresSyncStore(database: PostgresDatabase(configuration), ordering: ordering)
        }
    }

    /// A commit on one instance wakes a long poll parked on another (LISTEN/NOTIFY): `wait` answers true only when
    /// woken, false at its deadline, so no wall-clock bound is needed.
    @Test func aCommitOnOneInstanceWakesALongPollOnAnother() async throws {
        let name = "wake-" + UUID().uuidString.prefix(8)
        let stores = try Self.instances(2, name: name)
        let (writer, poller) = (stores[0], stores[1])
        // The listener connects on its own thread: wait until it listens, so the test never races it.
        try await Eventually.until {
            try writer.database.withConnection { db in
                try db.query("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN%'",
                             [.text("\(name)-1")]).first { try $0.int64(0) } == 1
            }
        }
        let seen = poller.notifier.generation(of: Self.patient)
        let waiting = Task { await poller.notifier.wait(for: Self.patient, after: seen, timeout: 60) }
        _ = try writer.upsert([SampleInput(type: .stepCount, value: 1, start: Self.t0, end: Self.t0 + 60)],
                              patient: Self.patient, source: "s", now: Self.t0)
        #expect(await waiting.value, "the poll on the other instance was not woken")
        #expect(poller.notifier.generation(of: "another patient") == 0)
    }

    /// Writers on two instances, readers paging with small limits on both: each reader sees every change once, in order.
    @Test func everyReaderOfEveryInstanceSeesEveryChangeOnceInOrder() async throws {
        let violations = try await onDedicatedThread { () -> [FeedConcurrencyTests.Violations] in
            let stores = try Self.instances(2)
            let committed = UUIDLog(), failures = UUIDLog(), results = ViolationsLog()
            let done = Shared(false)
            let writers = DispatchGroup(), readers = DispatchGroup()
            for w in 0..<4 {
                writers.enter()
                Thread {
                    defer { writers.leave() }
                    let store = stores[w % 2]
                    for b in 0..<40 {
                        let inputs = (0...(b % 3)).map { i in
                            SampleInput(type: .stepCount, value: Double(i), start: Self.t0, end: Self.t0 + 60,
                                        syncIdentifier: "w\(w)-b\(b)-\(i)", syncVersion: 1)
                        }
                        do {
                            let result = try store.upsert(inputs, patient: Self.patient, source: "s\(w)", now: Self.t0)
                            committed.append(result.results.map(\.uuid))
                        } catch { failures.fail("\(error)") }
                    }
                }.start()
            }
            for r in 0..<3 {
                readers.enter()
                Thread {
                    defer { readers.leave() }
                    let store = stores[r % 2]
                    var seen: [UUID] = []
                    var anchor: Anchor?
                    do {
                        while true {
                            let finished = done.current
                            let page = try store.changes(ChangeQuery(patient: Self.patient, anchor: anchor, limit: 5))
                            seen += page.samples.map(\.uuid)
                            anchor = page.anchor
                            if !page.hasMore && finished { break }
                        }
                        let truth = try store.changes(ChangeQuery(patient: Self.patient, limit: 5_000)).samples.map(\.uuid)
                        results.append(FeedConcurrencyTests.check(seen: seen, committed: truth))
                    } catch { failures.fail("\(error)") }
                }.start()
            }
            writers.wait()
            done.set(true)
            readers.wait()
            let truth = try stores[0].changes(ChangeQuery(patient: Self.patient, limit: 5_000))
            #expect(Set(truth.samples.map(\.uuid)) == Set(committed.all))
            #expect(failures.messages.isEmpty, "\(failures.messages)")
            return results.all
        }
        #expect(violations.count == 3)
        for v in violations { #expect(v.isEmpty, "\(v)") }
    }

    /// Writers of one key on two instances, versions in random order: no error for anyone (no 409 to
    /// retry), one live sample with the highest version, and every lower one that was ever live a tombstone.
    @Test func concurrentWritersOfOneKeyFollowTheVersionRules() async throws {
        var rng = SeededGenerator(seed: UInt64.random(in: 0...UInt64.max))
        let plans = (0..<6).map { _ in (0..<25).map { _ in Int64.random(in: 1...60, using: &rng) } }
        let (live, deleted, failures) = try await onDedicatedThread { () -> ([Sample], [DeletedObject], [String]) in
            let stores = try Self.instances(2)
            let failures = UUIDLog()
            let group = DispatchGroup()
            for w in plans.indices {
                group.enter()
                Thread {
                    defer { group.leave() }
                    for version in plans[w] {
                        let input = SampleInput(type: .stepCount, value: Double(version), start: Self.t0, end: Self.t0 + 60,
                                                syncIdentifier: "daily-steps", syncVersion: version)
                        do { _ = try stores[w % 2].upsert([input], patient: Self.patient, source: "watch", now: Self.t0) }
                        catch { failures.fail("\(error)") }
                    }
                }.start()
            }
            group.wait()
            let feed = try stores[1].changes(ChangeQuery(patient: Self.patient, limit: 5_000))
            return (feed.samples, feed.deletedObjects, failures.messages)
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(live.count == 1)
        let versions = deleted.compactMap(\.syncVersion) + live.compactMap(\.syncVersion)
        // Each replacement raised the version: the tombstones and the winner, in feed order, strictly increase.
        #expect(versions == versions.sorted() && Set(versions).count == versions.count, "\(versions)")
        #expect(live.first?.syncVersion == plans.joined().max())
    }
}
