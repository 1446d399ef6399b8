import CareSyncCore
import CareSyncReferenceModel
import CareSyncTestSupport
import Foundation
import Testing
@testable import CareSyncStore

/// A large page is read in two halves on two connections at once (`FeedQuery.readHalves`): the halves must join
/// into exactly the page one connection reads, and they must be refused when the two snapshots differ.
@Suite struct FeedSplitReadTests {
    static let patient = "patient-split"

    /// Samples of two sources and types, some replaced and some deleted (tombstones interleave with samples),
    /// plus another patient's writes between them.
    static func filledStore() throws -> StoreFixture {
        let f = try StoreFixture.make()
        var rng = SeededGenerator(seed: 7)
        for round in 0..<12 {
            let inputs = (0..<5).map { i in
                StoreFixture.input(type: i % 2 == 0 ? .stepCount : .heartRate, value: Double(round * 10 + i),
                                   syncIdentifier: "r\(Int.random(in: 0..<20, using: &rng))", syncVersion: Int64(round + 1))
            }
            let written = try f.store.upsert(inputs, patient: patient, source: round % 3 == 0 ? "watch" : "phone",
                                             now: StoreFixture.t0)
            _ = try f.store.upsert([StoreFixture.input(type: .stepCount, value: 1)], patient: "other", source: "watch",
                                   now: StoreFixture.t0)
            if round % 2 == 1, let victim = written.results.first?.uuid {
                _ = try f.store.delete(uuids: [victim], syncIdentifiers: [], patient: patient,
                                       source: round % 3 == 0 ? "watch" : "phone", now: StoreFixture.t0)
            }
        }
        return f
    }

    /// The page of `query` after `after`, read with `cores` and split from `splitMinimum` items up.
    static func page(_ f: StoreFixture, _ query: ChangeQuery, after: Int64, cores: Int, splitMinimum: Int) throws -> ChangeSet {
        try f.store.database.read { db in
            try FeedQuery.page(query, after: after, head: try StoreQueries.head(db), horizon: try StoreQueries.purgeHorizon(db),
                               storeID: f.store.storeID, db: db, database: f.store.database, cores: cores,
                               splitMinimum: splitMinimum)
        }
    }

    @Test func halvesJoinIntoTheOneConnectionPage() throws {
        let f = try Self.filledStore()
        let every = try f.store.changes(ChangeQuery(patient: Self.patient, limit: 5_000))
        #expect(every.deletedObjects.count >= 4 && every.samples.count >= 15,
                "the fixture should mix samples and tombstones: \(every.samples.count) and \(every.deletedObjects.count)")
        let sequences = [0] + (try f.store.database.read { db in
            try db.cachedStatement("SELECT seq FROM change_log WHERE patient = ? ORDER BY seq").map([.text(Self.patient)]) { $0.int64(0) }
        })
        let queries = [ChangeQuery(patient: Self.patient), ChangeQuery(patient: Self.patient, types: [.stepCount]),
                       ChangeQuery(patient: Self.patient, source: "watch")]
        // Pages holding at least half their limit, which `page` reads in halves when a second reader is idle.
        var splittable = 0
        for query in queries {
            for after in sequences {
                for limit in [2, 3, 7, 16, 100] {
                    var q = query
                    q.limit = limit
                    let whole = try Self.page(f, q, after: after, cores: 1, splitMinimum: 2)
                    let halves = try Self.page(f, q, after: after, cores: 2, splitMinimum: 2)
                    #expect(halves == whole, "types \(String(describing: q.types)), source \(q.source ?? "any"), after \(after), limit \(limit)")
                    if whole.samples.count + whole.deletedObjects.count >= limit / 2 { splittable += 1 }
                }
            }
        }
        #expect(splittable > 100)
    }

    /// The first ten items read by `FeedQuery.readHalves` (five on each connection), after `between` ran once the
    /// first connection's snapshot was taken and before the second took its own.
    static func firstTenInHalves(_ f: StoreFixture, between: () throws -> Void = {}) throws -> FeedRows? {
        let query = ChangeQuery(patient: patient, limit: 10)
        return try f.store.database.read { db -> FeedRows? in
            let head = try StoreQueries.head(db), horizon = try StoreQueries.purgeHorizon(db)
            let filters = FeedQuery.Filters(query)
            let middle = try #require(try filters.sequence(ofItem: 5, after: 0, db: db))
            try between()
            return try f.store.database.readIfIdle { other in
                try FeedQuery.readHalves(filters, after: 0, middle: middle, limit: 10, head: head, horizon: horizon,
                                         db: db, other: other)
            } ?? nil
        }
    }

    @Test func halvesAreReadOnTwoConnectionsWhenTheSnapshotsAgree() throws {
        let f = try Self.filledStore()
        let rows = try #require(try Self.firstTenInHalves(f))
        let whole = try f.store.changes(ChangeQuery(patient: Self.patient, limit: 10))
        #expect(rows.samples == whole.samples && rows.deleted == whole.deletedObjects && rows.hasMore == whole.hasMore)
    }

    @Test func halvesAreRefusedWhenAWriteCommitsBetweenTheSnapshots() throws {
        let f = try Self.filledStore()
        let halves = try Self.firstTenInHalves(f) {
            _ = try f.store.upsert([StoreFixture.input(type: .stepCount, value: 2)], patient: "other", source: "watch",
                                   now: StoreFixture.t0)
        }
        #expect(halves == nil)
    }
}
